import { afterAll, beforeAll, expect, it } from 'vitest';
import { startScheduler } from '../../scripts/scheduler.ts';
import { startTestPlatform, type TestPlatform } from '../../sync/testing/index.ts';
import { createDoctor, createPatient, ensureService } from './support.ts';

let t: TestPlatform;

beforeAll(async () => {
  t = await startTestPlatform();
}, 60_000);

afterAll(() => t.stop());

it('the server job expires unpaid appointments whose time passed, through /rest/v1', async () => {
  const db = t.platform.ctx.db;
  await ensureService(db);
  const doctor = await createDoctor(db, { name: 'Doutora Expira' });
  const patient = await createPatient(db, 7);
  const { rows } = await db.query<{ id: string; paid: boolean }>(
    `insert into public.agendamentos (patient_id, medico_id, servico_id, appointment_date, appointment_time,
       horario_inicio, horario_fim, price_in_cents, pagamento_status)
     select $1, $2, s.id, current_date, '08:00', now() - interval '2 hours' * p.n,
       now() - interval '2 hours' * p.n + interval '30 minutes', 0, p.status
     from public.servicos s, (values (1, 'pendente'), (2, 'pago')) as p (n, status)
     returning id, pagamento_status = 'pago' as paid`,
    [patient, doctor.medicoId],
  );
  const errors: string[] = [];
  const stop = startScheduler({
    url: t.url,
    serviceRoleKey: t.serviceRoleKey,
    onError: (m) => errors.push(m),
  });
  try {
    const unpaid = rows.find((r) => !r.paid)!.id;
    await expect
      .poll(
        async () =>
          (
            await db.query<{ status: string }>(
              'select status from public.agendamentos where id = $1',
              [unpaid],
            )
          ).rows[0]!.status,
      )
      .toBe('expirado');
    const paid = rows.find((r) => r.paid)!.id;
    expect(
      (
        await db.query<{ status: string }>('select status from public.agendamentos where id = $1', [
          paid,
        ])
      ).rows[0]!.status,
    ).toBe('confirmado');
    expect(errors).toEqual([]);
  } finally {
    stop();
  }
});
