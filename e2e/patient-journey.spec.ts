import { expect, test } from '@playwright/test';
import { CANCELLATION_POLICY_TEXT, HOLD_NOTE } from '../src/domain/rules/policy.ts';
import {
  anySlot,
  DEFAULT_POLICY,
  VIEWPORTS,
  cardAt,
  decodeQr,
  setBookingPolicy,
  visitorGrid,
} from './patient-support.ts';
import {
  firstFreeSlot,
  latestMail,
  newPatient,
  registeredPatient,
  revealSlot,
  shot,
  slotButton,
} from './support.ts';

for (const vp of VIEWPORTS) {
  test.describe(`patient journey at ${vp.width}×${vp.height}`, () => {
    test.use({ viewport: { width: vp.width, height: vp.height } });
    // Tests below shorten the hold or lengthen the notice; the next one starts from the
    // defaults even when one fails (a hook, so a failure is reported as itself).
    test.afterEach(({ request }) => setBookingPolicy(request, DEFAULT_POLICY));

    test('a checkout hold: resumed, cancelled from the card, or left to expire — the slot comes back live for others', async ({
      page,
      browser,
    }) => {
      await registeredPatient(page, newPatient(`hold-${vp.name}`));
      const visitor = await visitorGrid(browser, vp);
      try {
        await page.goto('/agendamentos');
        // 'Ver mais horários' fits a day column in at most two lines, phone included.
        const more = page.getByRole('button', { name: 'Ver mais horários' }).first();
        await expect(more).toBeVisible();
        const lines = await more.evaluate(
          (el) => el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight),
        );
        expect(lines).toBeLessThan(3);
        const first = await firstFreeSlot(page);
        await shot(page, `17-agendamentos-${vp.name}`);
        await slotButton(page, first).click();
        await expect(page).toHaveURL(/\/checkout$/);
        await expect(page.getByText(HOLD_NOTE)).toBeVisible();
        await expect(page.getByText(CANCELLATION_POLICY_TEXT)).toBeVisible();
        // The profile is complete: nothing to complete.
        await expect(page.getByRole('button', { name: 'Completar Cadastro' })).toHaveCount(0);
        await shot(page, `17-checkout-${vp.name}`);
        await revealSlot(visitor.page, first);
        await expect(anySlot(visitor.page, first)).toBeDisabled();

        // Left at checkout: the card offers the way back and a way out, not a room. The
        // dashboard's one navigation marks where the patient is (a 'Menu' button on phones).
        await page.goto('/paciente/dashboard');
        if (vp.name === 'phone') {
          await expect(page.getByRole('button', { name: 'Menu · Minhas Consultas' })).toBeVisible();
        } else {
          await expect(page.getByRole('link', { name: 'Minhas Consultas' })).toHaveAttribute(
            'aria-current',
            'page',
          );
        }
        const held = cardAt(page, 'Próximas consultas', first.time);
        await expect(held.getByRole('button', { name: 'Continuar agendamento' })).toBeVisible();
        await expect(held.getByText('Protocolo')).toHaveCount(0);
        await expect(held.getByRole('button', { name: 'Entrar na sala' })).toHaveCount(0);
        await shot(page, `17-hold-card-${vp.name}`);
        await held.getByRole('button', { name: 'Continuar agendamento' }).click();
        await expect(page).toHaveURL(/\/checkout$/);
        await expect(page.getByRole('button', { name: 'Confirmar e Gerar Guia' })).toBeEnabled();
        await expect(page.getByText(`${first.time} (horário de Brasília)`)).toBeVisible();

        // Cancelled from the card: the slot frees for the visitor without a reload.
        await page.goto('/paciente/dashboard/consultas');
        await held.getByRole('button', { name: 'Cancelar', exact: true }).click();
        const dialog = page.getByRole('dialog', { name: 'Cancelar agendamento' });
        await expect(dialog.getByText(CANCELLATION_POLICY_TEXT)).toBeVisible();
        await shot(page, `17-hold-cancel-dialog-${vp.name}`);
        await dialog.getByRole('button', { name: 'Confirmar cancelamento' }).click();
        await expect(cardAt(page, 'Histórico', first.time).getByText('Cancelada')).toBeVisible();
        await expect(anySlot(visitor.page, first)).toBeEnabled();

        // Abandoned: once the (shortened) hold passes, the job frees it for everyone, live.
        await page.goto('/agendamentos');
        const second = await firstFreeSlot(page);
        await slotButton(page, second).click();
        await expect(page).toHaveURL(/\/checkout$/);
        await page.goto('/paciente/dashboard/consultas');
        await expect(cardAt(page, 'Próximas consultas', second.time)).toBeVisible();
        await revealSlot(visitor.page, second);
        await expect(anySlot(visitor.page, second)).toBeDisabled();
        await setBookingPolicy(page.request, { reserva_checkout: '1 second' });
        await expect(anySlot(visitor.page, second)).toBeEnabled({ timeout: 30_000 });
        await expect(cardAt(page, 'Histórico', second.time).getByText('Expirada')).toBeVisible();
        await shot(page, `17-history-${vp.name}`);
      } finally {
        await visitor.close();
      }
    });

    test('self-cancel outside the notice, refused inside it; the guide QR scans from a screenshot', async ({
      page,
    }) => {
      await registeredPatient(page, newPatient(`cancel-${vp.name}`));
      // Days four and more ahead: both appointments start well outside the 24 h notice.
      const booked: string[] = [];
      for (let i = 0; i < 2; i++) {
        await page.goto('/agendamentos');
        const grid = page.getByRole('region', { name: 'HORA MARCADA' }).first();
        await grid.getByRole('button', { name: 'Próximos dias' }).click();
        // Paged on: today and the next days, inside the notice, are off the grid.
        await expect(grid.getByRole('button', { name: 'Dias anteriores' })).toBeEnabled();
        const choice = await firstFreeSlot(page);
        await slotButton(page, choice).click();
        await expect(page).toHaveURL(/\/checkout$/);
        await page.getByRole('button', { name: 'Confirmar e Gerar Guia' }).click();
        await expect(page).toHaveURL(/\/agendamento-sucesso$/);
        booked.push(choice.time);
      }

      await page.getByRole('link', { name: 'Ver Guia' }).click();
      await expect(page).toHaveURL(/\/guia\/[0-9a-f-]{36}$/);
      const qr = page.getByTestId('guide-qr');
      const value = await qr.getAttribute('data-value');
      expect(value).toMatch(/^SAUDEJA:GUIA:SJ-/);
      await expect(qr.locator('svg')).toBeVisible();
      expect(await decodeQr(qr.locator('svg'))).toBe(value);
      const payment = page.getByRole('region', { name: 'Pagamento' });
      await expect(payment.getByText('Aguardando Pagamento')).toBeVisible();
      await expect(page.getByText(CANCELLATION_POLICY_TEXT)).toBeVisible();
      await shot(page, `17-guide-${vp.name}`);
      await qr.click();
      const enlarged = page.getByTestId('guide-qr-enlarged');
      await expect(enlarged).toBeVisible();
      expect(await decodeQr(enlarged)).toBe(value);
      await shot(page, `17-guide-qr-enlarged-${vp.name}`);
      await page.keyboard.press('Escape');

      await page.goto('/paciente/dashboard/consultas');
      const [outside, inside] = booked as [string, string];
      const first = cardAt(page, 'Próximas consultas', outside);
      // The built-in room (the doctor's default) needs no link.
      await expect(first.getByRole('button', { name: 'Entrar na sala' })).not.toHaveAttribute(
        'aria-disabled',
        'true',
      );
      await shot(page, `17-upcoming-${vp.name}`);
      await first.getByRole('button', { name: 'Cancelar consulta' }).click();
      const dialog = page.getByRole('dialog', { name: 'Cancelar consulta' });
      await expect(dialog.getByText(CANCELLATION_POLICY_TEXT)).toBeVisible();
      await shot(page, `17-cancel-dialog-${vp.name}`);
      await dialog.getByRole('button', { name: 'Confirmar cancelamento' }).click();
      await expect(cardAt(page, 'Histórico', outside).getByText('Cancelada')).toBeVisible();
      await expect(page.getByText('Sucesso', { exact: true })).toBeVisible();
      await expect(page.getByText('Agendamento cancelado com sucesso.')).toBeVisible();

      // The server owns the rule: with a notice longer than the wait, it refuses, says why,
      // and the appointment stays as it was.
      await setBookingPolicy(page.request, { antecedencia_cancelamento: '3650 days' });
      const second = cardAt(page, 'Próximas consultas', inside);
      await second.getByRole('button', { name: 'Cancelar consulta' }).click();
      await page
        .getByRole('dialog', { name: 'Cancelar consulta' })
        .getByRole('button', { name: 'Confirmar cancelamento' })
        .click();
      await expect(page.getByText('Erro ao cancelar')).toBeVisible();
      await expect(
        page.getByText(
          'O cancelamento pelo paciente só é possível até 87600 horas antes da consulta. Fale com o médico.',
        ),
      ).toBeVisible();
      await expect(second.getByText('Aguardando Pagamento')).toBeVisible();
      await shot(page, `17-cancel-refused-${vp.name}`);
    });

    test('a used password-reset link is recognised at once and a new one offered', async ({
      page: signup,
      browser,
    }) => {
      const patient = newPatient(`reset-${vp.name}`);
      await registeredPatient(signup, patient);
      // Someone who forgot their password, on a device where they are not signed in.
      const context = await browser.newContext({
        viewport: { width: vp.width, height: vp.height },
        locale: 'pt-BR',
        timezoneId: 'America/Sao_Paulo',
      });
      const page = await context.newPage();
      await page.goto('/recuperar-senha');
      await page.getByLabel('E-mail').fill(patient.email);
      await page.getByRole('button', { name: 'Enviar link de recuperação' }).click();
      let link = '';
      await expect
        .poll(async () => {
          const mail = await latestMail(page.request, patient.email);
          link = mail.links.find((l) => l.includes('type=recovery')) ?? '';
          return link;
        })
        .not.toBe('');
      await page.goto(link);
      await expect(page.getByRole('button', { name: 'Salvar Nova Senha' })).toBeVisible();
      await expect(
        page.getByRole('button', { name: 'Mostrar confirmação da nova senha' }),
      ).toBeVisible();
      await page.goto(link);
      await expect(page.getByText('Link inválido ou expirado')).toBeVisible();
      await expect(page.getByRole('button', { name: 'Salvar Nova Senha' })).toHaveCount(0);
      await shot(page, `17-reset-expired-${vp.name}`);
      await page.getByRole('link', { name: 'Solicitar novo link' }).click();
      await expect(page).toHaveURL(/\/recuperar-senha$/);
      await context.close();
    });
  });
}

test('/favicon.ico is an icon', async ({ request }) => {
  const res = await request.get('/favicon.ico');
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toBe('image/x-icon');
});
