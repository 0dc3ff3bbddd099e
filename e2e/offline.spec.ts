import { expect, test } from '@playwright/test';
import {
  appointments,
  firstFreeSlot,
  installApp,
  newPatient,
  registeredPatient,
  shot,
  slotButton,
} from './support.ts';

test('the installed app works offline and an offline booking completes on reconnect', async ({
  page,
  context,
}) => {
  const patient = newPatient('offline');
  await registeredPatient(page, patient);

  // A first booking online, so there is a guide to read offline later.
  await page.goto('/agendamentos');
  await slotButton(page, await firstFreeSlot(page)).click();
  await page.getByRole('button', { name: 'Confirmar e Gerar Guia' }).click();
  const guideLink = page.getByRole('link', { name: 'Ver Guia' });
  await expect(guideLink).toBeVisible();
  await guideLink.click();
  await expect(page.getByTestId('guide-qr').locator('svg')).toBeVisible();
  const guideUrl = page.url();
  await installApp(page);

  await page.goto('/paciente/dashboard/consultas');
  await expect(appointments(page)).toHaveCount(1);

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByText('Você está offline')).toBeVisible();
  await expect(appointments(page)).toHaveCount(1);
  await expect(appointments(page).first().getByText('Aguardando Pagamento')).toBeVisible();
  await shot(page, '12-painel-offline');
  await page.goto(guideUrl);
  await expect(page.getByTestId('guide-qr').locator('svg')).toBeVisible();
  await expect(page.getByText(patient.fullName)).toBeVisible();
  await shot(page, '13-guia-offline');

  await page.goto('/agendamentos');
  const offlineChoice = await firstFreeSlot(page);
  await slotButton(page, offlineChoice).click();
  await expect(page).toHaveURL(/\/checkout$/);
  await page.getByRole('button', { name: 'Confirmar e Gerar Guia' }).click();
  await expect(page).toHaveURL(/\/agendamento-sucesso$/);
  await expect(page.getByText('Agendamento aguardando envio')).toBeVisible();

  await page.getByRole('link', { name: 'Ir para Minhas Consultas' }).click();
  const pending = page.locator('[data-testid="appointment"][data-sync="pending"]');
  await expect(pending).toHaveCount(1);
  await expect(pending.getByText('Aguardando sincronização')).toBeVisible();
  await expect(page.getByText(/alteraç(ão|ões) pendente/)).toBeVisible();
  await shot(page, '14-agendamento-pendente');

  await context.setOffline(false);
  await expect(pending).toHaveCount(0, { timeout: 30_000 });
  await expect(appointments(page)).toHaveCount(2);
  await expect(page.getByText('Você está offline')).toBeHidden();
  for (const item of await appointments(page).all()) {
    await expect(item.getByText('Aguardando Pagamento')).toBeVisible();
    await expect(item.getByRole('link', { name: 'Ver guia' })).toBeVisible();
  }
  await shot(page, '15-agendamento-sincronizado');
});
