import { expect, test } from '@playwright/test';
import {
  firstFreeSlot,
  newPatient,
  registeredPatient,
  shot,
  slotButton,
  PASSWORD,
} from './support.ts';

test("a visitor's slot choice continues after logging in from the modal", async ({ page }) => {
  const patient = newPatient('visitor');
  await registeredPatient(page, patient);
  await page.getByRole('button', { name: 'Sair' }).first().click();
  await expect(page).toHaveURL(/\/$/);

  await page.goto('/agendamentos');
  const choice = await firstFreeSlot(page);
  await slotButton(page, choice).click();

  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await shot(page, '11-modal-login');
  const form = dialog.getByRole('form', { name: 'Entrar' });
  await form.getByLabel('E-mail').fill(patient.email);
  await form.getByLabel('Senha', { exact: true }).fill(PASSWORD);
  await form.getByRole('button', { name: 'Entrar' }).click();

  await expect(page).toHaveURL(/\/checkout$/);
  await expect(dialog).toBeHidden();
  await expect(page.getByText(choice.time).first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Confirmar e Gerar Guia' })).toBeEnabled();
});
