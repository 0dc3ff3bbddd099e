import { expect, test } from '@playwright/test';
import {
  appointments,
  confirmEmail,
  firstFreeSlot,
  logIn,
  newPatient,
  shot,
  signUp,
  slotButton,
} from './support.ts';

test('sign up, confirm, log in, book with the incomplete-profile round trip, get the guide', async ({
  page,
}) => {
  const patient = newPatient('journey', { whatsapp: false });

  await signUp(page, patient);
  await shot(page, '01-cadastro-sucesso');
  await confirmEmail(page, patient.email);
  // The verify link lands on /acesso-paciente with the session, which sends a patient on.
  await expect(page).toHaveURL(/\/paciente\/dashboard/);
  await page.getByRole('button', { name: 'Sair' }).first().click();
  await expect(page).toHaveURL(/\/$/);

  await logIn(page, patient.email);
  await expect(page.getByTestId('patient-name')).toHaveText(patient.fullName);
  await expect(page.getByText('Você não tem consultas agendadas.')).toBeVisible();
  await shot(page, '02-painel-vazio');

  await page.goto('/agendamentos');
  const choice = await firstFreeSlot(page);
  await shot(page, '03-agendamentos');
  await slotButton(page, choice).click();

  await expect(page).toHaveURL(/\/checkout$/);
  await expect(page.getByText('Dados Incompletos')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Confirmar e Gerar Guia' })).toBeDisabled();
  await shot(page, '04-checkout-incompleto');
  await page.getByRole('button', { name: 'Completar Cadastro' }).click();

  await expect(page).toHaveURL(/\/paciente\/dashboard\/dados$/);
  await expect(page.getByLabel('CPF')).toHaveAttribute('readonly', '');
  await expect(page.getByText('O CPF não pode ser alterado.')).toBeVisible();
  await page.getByLabel('WhatsApp').pressSequentially('11912345678');
  await expect(page.getByLabel('WhatsApp')).toHaveValue('(11) 91234-5678');
  await shot(page, '05-meus-dados');
  await page.getByRole('button', { name: 'Salvar Alterações' }).click();

  await expect(page).toHaveURL(/\/checkout$/);
  await expect(page.getByText('Dados Incompletos')).toBeHidden();
  await expect(page.getByText('(11) 91234-5678')).toBeVisible();
  await shot(page, '06-checkout');
  await page.getByRole('button', { name: 'Confirmar e Gerar Guia' }).click();

  await expect(page).toHaveURL(/\/agendamento-sucesso$/);
  await expect(page.getByText('Agendamento Concluído!')).toBeVisible();
  const guideLink = page.getByRole('link', { name: 'Ver Guia' });
  await expect(guideLink).toBeVisible();
  await shot(page, '07-agendamento-sucesso');
  await guideLink.click();

  await expect(page).toHaveURL(/\/guia\/[0-9a-f-]{36}$/);
  const qr = page.getByTestId('guide-qr');
  await expect(qr.locator('svg')).toBeVisible();
  const protocol = await qr.getAttribute('data-value');
  expect(protocol).toBeTruthy();
  await expect(page.getByText(patient.fullName)).toBeVisible();
  await shot(page, '08-guia');

  await page.goto('/paciente/dashboard/consultas');
  const item = appointments(page).first();
  await expect(item).toBeVisible();
  await expect(item.getByText('Aguardando Pagamento')).toBeVisible();
  await expect(item.getByText(choice.time, { exact: false })).toBeVisible();
  await expect(item.getByRole('link', { name: 'Ver guia' })).toBeVisible();
  // The doctor uses the built-in room (the default): the room is open to enter, no link needed.
  const room = item.getByRole('button', { name: 'Entrar na sala' });
  await expect(room).not.toHaveAttribute('aria-disabled', 'true');
  await expect(
    item.getByText('O médico ainda não disponibilizou o link para esta consulta.'),
  ).toHaveCount(0);
  await shot(page, '09-minhas-consultas');
});
