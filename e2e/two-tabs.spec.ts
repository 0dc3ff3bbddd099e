import { expect, test } from '@playwright/test';
import {
  appointments,
  firstFreeSlot,
  newPatient,
  registeredPatient,
  shot,
  slotButton,
} from './support.ts';

test('two tabs of one patient share the replica: a booking queued offline in one shows in the other and is sent once', async ({
  context,
  page,
}) => {
  await registeredPatient(page, newPatient('tabs'));
  const other = await context.newPage();
  await other.goto('/paciente/dashboard/consultas');
  await expect(other.getByText('Você não tem consultas agendadas.')).toBeVisible();
  await page.goto('/agendamentos');
  const choice = await firstFreeSlot(page);

  await context.setOffline(true);
  await slotButton(page, choice).click();
  await expect(page).toHaveURL(/\/checkout$/);
  await page.getByRole('button', { name: 'Confirmar e Gerar Guia' }).click();
  await expect(page.getByText('Agendamento aguardando envio')).toBeVisible();

  // The other tab never reloads: the queued booking reaches it through the shared replica.
  const pending = other.locator('[data-testid="appointment"][data-sync="pending"]');
  await expect(pending).toHaveCount(1);
  await expect(pending.getByText('Aguardando sincronização')).toBeVisible();
  await shot(other, '17-segunda-aba-pendente');

  await context.setOffline(false);
  await expect(pending).toHaveCount(0, { timeout: 30_000 });
  await expect(appointments(other)).toHaveCount(1);
  await expect(appointments(other).first().getByText('Aguardando Pagamento')).toBeVisible();
  await page.goto('/paciente/dashboard/consultas');
  await expect(appointments(page)).toHaveCount(1);
});
