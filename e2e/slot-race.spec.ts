import { expect, test, type Page } from '@playwright/test';
import {
  appointments,
  firstFreeSlot,
  newPatient,
  registeredPatient,
  shot,
  slotButton,
} from './support.ts';

const LIST = /\/paciente\/dashboard\/consultas$/;

/** Resolves with the page the server turned away: it is sent to its list (spec §4 step 5). */
async function loserOf(a: Page, b: Page): Promise<{ loser: Page; winner: Page }> {
  const lost = await Promise.race([
    a.waitForURL(LIST, { timeout: 45_000 }).then(() => 'a' as const),
    b.waitForURL(LIST, { timeout: 45_000 }).then(() => 'b' as const),
  ]);
  return lost === 'a' ? { loser: a, winner: b } : { loser: b, winner: a };
}

test('two patients race for one slot: one guide, one clear rejection', async ({ browser }) => {
  const [a, b] = await Promise.all([browser.newContext(), browser.newContext()]);
  const pageA = await a.newPage();
  const pageB = await b.newPage();
  await registeredPatient(pageA, newPatient('race-a'));
  await registeredPatient(pageB, newPatient('race-b'));

  await Promise.all([pageA.goto('/agendamentos'), pageB.goto('/agendamentos')]);
  const choice = await firstFreeSlot(pageA);
  await expect(slotButton(pageB, choice)).toBeEnabled();
  await Promise.all([slotButton(pageA, choice).click(), slotButton(pageB, choice).click()]);

  const { loser, winner } = await loserOf(pageA, pageB);
  const rejected = loser.locator('[data-testid="appointment"][data-sync="rejected"]');
  await expect(rejected).toHaveCount(1);
  await expect(rejected.getByText('Este horário já foi reservado.')).toBeVisible();
  await shot(loser, '16-corrida-rejeitada');

  await expect(winner).toHaveURL(/\/checkout$/);
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
