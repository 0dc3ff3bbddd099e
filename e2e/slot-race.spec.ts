import { expect, test } from '@playwright/test';
import {
  appointments,
  firstFreeSlot,
  newPatient,
  registeredPatient,
  revealSlot,
  shot,
  slotButton,
} from './support.ts';

const LIST = /\/paciente\/dashboard\/consultas$/;

test('two patients race for one slot: one guide, one clear rejection', async ({ browser }) => {
  const [a, b] = await Promise.all([browser.newContext(), browser.newContext()]);
  const pageA = await a.newPage();
  const pageB = await b.newPage();
  await registeredPatient(pageA, newPatient('race-a'));
  await registeredPatient(pageB, newPatient('race-b'));

  await Promise.all([pageA.goto('/agendamentos'), pageB.goto('/agendamentos')]);
  const choice = await firstFreeSlot(pageA);
  await revealSlot(pageB, choice);
  await expect(slotButton(pageB, choice)).toBeEnabled();

  // Two clicks "at once" are decided by timing: when one booking reaches the other screen
  // first, that slot is simply disabled there. The race that matters for a clinic with a flaky
  // connection is deterministic: B picks the slot offline (queued on the device), A books it
  // online, and when B reconnects the server must turn B's booking away.
  const [winner, loser] = [pageA, pageB];
  await b.setOffline(true);
  await slotButton(loser, choice).click();
  await expect(loser).toHaveURL(/\/checkout$/);
  await slotButton(winner, choice).click();
  await expect(winner).toHaveURL(/\/checkout$/);
  await b.setOffline(false);
  await expect(loser).toHaveURL(LIST, { timeout: 45_000 });
  const rejected = loser.locator('[data-testid="appointment"][data-sync="rejected"]');
  await expect(rejected).toHaveCount(1);
  await expect(rejected.getByText('Este horário já foi reservado.')).toBeVisible();
  await shot(loser, '16-corrida-rejeitada');

  await winner.getByRole('button', { name: 'Confirmar e Gerar Guia' }).click();
  await expect(winner.getByRole('link', { name: 'Ver Guia' })).toBeVisible();
  await winner.getByRole('link', { name: 'Ver Guia' }).click();
  await expect(winner.getByTestId('guide-qr').locator('svg')).toBeVisible();
  await winner.goto('/paciente/dashboard/consultas');
  await expect(appointments(winner)).toHaveCount(1);

  await rejected.getByRole('button', { name: 'Dispensar' }).click();
  await expect(rejected).toHaveCount(0);
  await expect(appointments(loser)).toHaveCount(0);
  await expect(loser.getByText('Você não tem consultas agendadas.')).toBeVisible();

  await Promise.all([a.close(), b.close()]);
});
