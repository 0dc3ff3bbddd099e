import { expect, test, type Locator } from '@playwright/test';
import { Temporal } from 'temporal-polyfill';
import { openSignup } from './support.ts';

async function submit(form: Locator) {
  await form.getByRole('button', { name: 'Criar Conta' }).click();
}

test('every sign-up validation message, with the masks applied', async ({ page }) => {
  const form = await openSignup(page);

  await submit(form);
  for (const message of [
    'Nome é obrigatório',
    'CPF é obrigatório',
    'Data de nascimento é obrigatória',
    'E-mail é obrigatório',
    'Senha é obrigatória',
  ]) {
    await expect(form.getByText(message, { exact: true })).toBeVisible();
  }
  await page.screenshot({ path: 'test-results/e2e/screenshots/10-cadastro-validacao.png' });

  const cpf = form.getByLabel('CPF');
  await cpf.pressSequentially('11111111111');
  await expect(cpf).toHaveValue('111.111.111-11');
  const birth = form.getByLabel('Data de nascimento');
  await birth.pressSequentially('31021990');
  await expect(birth).toHaveValue('31/02/1990');
  const whatsapp = form.getByLabel('WhatsApp (opcional)');
  await whatsapp.pressSequentially('11987654321');
  await expect(whatsapp).toHaveValue('(11) 98765-4321');
  await form.getByLabel('E-mail').fill('nao-e-email');
  await form.getByLabel('Senha', { exact: true }).fill('curta');
  await submit(form);
  await expect(form.getByText('CPF inválido.', { exact: true })).toBeVisible();
  await expect(form.getByText('Data de nascimento inválida.', { exact: true })).toBeVisible();
  await expect(form.getByText('Endereço de e-mail inválido', { exact: true })).toBeVisible();
  await expect(
    form.getByText('A senha deve ter no mínimo 8 caracteres', { exact: true }),
  ).toBeVisible();

  const today = Temporal.Now.plainDateISO('America/Sao_Paulo');
  const seventeen = today.subtract({ years: 17 });
  await birth.fill('');
  await birth.pressSequentially(
    `${String(seventeen.day).padStart(2, '0')}${String(seventeen.month).padStart(2, '0')}${seventeen.year}`,
  );
  await submit(form);
  await expect(form.getByText('Você deve ter no mínimo 18 anos.', { exact: true })).toBeVisible();

  await birth.fill('');
  await birth.pressSequentially('01011899');
  await submit(form);
  await expect(form.getByText('Data de nascimento inválida.', { exact: true })).toBeVisible();
});
