import { expect, test, type Page } from '@playwright/test';
import { firstFreeSlot, newPatient, PASSWORD, registeredPatient, slotButton } from './support.ts';

/**
 * Every page the app opens by itself — after checkout, sign-in, a guard's redirect — takes
 * focus to its heading and is announced, as a link's page is (docs/product-rules.md §2
 * "Route table"). Walked with the keyboard only, as a screen-reader user would.
 */
async function expectHeadingFocused(page: Page, heading: string | RegExp): Promise<void> {
  const h1 = page.locator('main h1').first();
  await expect(h1).toHaveText(heading);
  await expect(h1).toBeFocused();
  await expect(page.getByRole('status').filter({ hasText: /\S/ }).last()).not.toHaveText('');
}

test('checkout, sign-in and the guard leave focus on the new page heading', async ({ page }) => {
  const patient = newPatient('focus');
  await registeredPatient(page, patient);

  await page.goto('/agendamentos');
  const choice = await firstFreeSlot(page);
  await slotButton(page, choice).focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/checkout$/);
  await expectHeadingFocused(page, 'Confirme seu agendamento');

  const confirm = page.getByRole('button', { name: 'Confirmar e Gerar Guia' });
  await expect(confirm).toBeEnabled();
  await confirm.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/agendamento-sucesso$/);
  await expectHeadingFocused(page, /Agendamento Concluído!|Horário agendado com sucesso!/);

  await page.getByRole('button', { name: 'Sair' }).first().focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/$/);

  // The guard sends a signed-out visitor to the login screen.
  await page.getByRole('link', { name: 'Área do Paciente' }).first().focus();
  await page.goto('/paciente/dashboard/consultas');
  await expect(page).toHaveURL(/\/acesso-paciente/);

  const form = page.getByRole('form', { name: 'Entrar' });
  await form.getByLabel('E-mail').fill(patient.email);
  await form.getByLabel('Senha', { exact: true }).fill(PASSWORD);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/paciente\/dashboard/);
  await expectHeadingFocused(page, /\S/);
});
