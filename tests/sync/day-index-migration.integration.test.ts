import { firstValueFrom } from 'rxjs';
import { Temporal } from 'temporal-polyfill';
import { expect, it } from 'vitest';
import { agendamentosSchema, guiasSchema } from '../../sync/schemas.ts';
import { TABLES, type TableSpec } from '../../sync/tables.ts';
import { createDoctor, device, settled, slot, platformForFile } from '../../sync/testing/index.ts';

const t = platformForFile();

/** The collection as the previous app version shipped it: one version down, without `indexes`. */
function previous(name: 'agendamentos' | 'guias', schema: TableSpec['schema']): TableSpec {
  const current = TABLES.find((s) => s.name === name) as TableSpec;
  const { indexes: _indexes, ...unindexed } = schema;
  const version = schema.version - 1;
  const migrationStrategies = Object.fromEntries(
    Object.entries(current.migrationStrategies).filter(([v]) => Number(v) <= version),
  );
  return { ...current, schema: { ...unindexed, version }, migrationStrategies };
}

const before = TABLES.map((s) =>
  s.name === 'agendamentos'
    ? previous('agendamentos', agendamentosSchema as unknown as TableSpec['schema'])
    : s.name === 'guias'
      ? previous('guias', guiasSchema as unknown as TableSpec['schema'])
      : s,
);

/** The São Paulo day of `instant`, as the range the day's query takes. */
function dayOf(instant: string): [string, string] {
  const day = Temporal.Instant.from(instant).toZonedDateTimeISO('America/Sao_Paulo').toPlainDate();
  const start = (d: Temporal.PlainDate) =>
    d.toZonedDateTime('America/Sao_Paulo').toInstant().toString();
  return [start(day), start(day.add({ days: 1 }))];
}

it('[R3][R4] the day index arrives with an app update: the replica opens offline with its queue, lists the day through the index and sends the queued action once online', async () => {
  const doctor = await createDoctor(t);
  const phone = await device(t, { role: 'paciente' });
  const booked = await phone.sync.book({ medicoId: doctor.medicoId, horarioInicio: slot(2) });
  if (!booked.ok) throw new Error('booking was not queued');
  await phone.sync.generateGuide(booked.value.appointmentId);
  await settled(phone);
  const [appointment] = await firstValueFrom(phone.sync.appointments$);
  const id = appointment!.id;

  // The doctor's replica was made by the previous version (no indexes).
  const laptop = await device(t, { as: doctor }, { engine: { tables: before } });
  await settled(phone, laptop);

  // The app is updated while the laptop is offline, with a payment still in the queue.
  laptop.offline();
  const paid = await laptop.sync.confirmPayment(id);
  if (!paid.ok) throw new Error('payment was not queued');
  await laptop.reload({ tables: TABLES });

  const [from, to] = dayOf(slot(2));
  const offlineDay = await firstValueFrom(laptop.sync.appointmentsBetween$(from, to));
  expect(offlineDay.map((a) => [a.id, a.pagamento_status, a.sync.state])).toEqual([
    [id, 'pago', 'pending'],
  ]);
  expect(offlineDay[0]?.guia?.protocolo).toBe(appointment!.guia?.protocolo);
  expect(offlineDay[0]?.paciente?.id).toBe(phone.person.id);
  // Another day lists nothing, from the same index.
  const [nextFrom, nextTo] = dayOf(Temporal.Instant.from(slot(2)).add({ hours: 24 }).toString());
  expect(await firstValueFrom(laptop.sync.appointmentsBetween$(nextFrom, nextTo))).toEqual([]);

  laptop.net.requests.length = 0;
  laptop.online();
  await settled(phone, laptop);
  const day = await firstValueFrom(laptop.sync.appointmentsBetween$(from, to));
  expect(day.map((a) => [a.id, a.pagamento_status, a.sync.state])).toEqual([
    [id, 'pago', 'synced'],
  ]);
  expect(day).toEqual((await firstValueFrom(laptop.sync.appointments$)).filter((a) => a.id === id));
  // Both indexed collections are pulled again from the start (new replication identifiers).
  const firstPull = (table: string) =>
    laptop.net.requests.find((r) => r.startsWith(`GET ${t.url}/rest/v1/${table}?`)) ?? '';
  expect(firstPull('agendamentos')).not.toContain('or=');
  expect(firstPull('guias')).not.toContain('or=');
});
