/**
 * The platform for bench/sync, in its own process: in production the server never shares the
 * browser's thread, so its CPU (REST over PGlite) must not be counted against the replica.
 * Seeds one doctor with APPOINTMENTS appointments of PATIENTS patients, lets the local
 * Realtime service drain the seed's change backlog, then prints `SyncBenchServer` as one JSON
 * line on stdout and serves until SIGTERM. PGlite in memory, or PostgreSQL with DATABASE_URL.
 */
import { performance } from 'node:perf_hooks';
import { createDoctor, createPatient, seedAppointments } from '../../sync/testing/people.ts';
import { startPlatform } from '../../sync/testing/platform.ts';

export type SyncBenchServer = {
  url: string;
  anonKey: string;
  database: string;
  appointments: number;
  seedMs: number;
  doctor: { email: string };
  patient: { email: string; appointmentId: string };
};

const APPOINTMENTS = Number(process.env.BENCH_APPOINTMENTS ?? 10_000);
const PATIENTS = 20;

const t = await startPlatform();
const doctor = await createDoctor(t, { name: 'Dra. Bench' });
const patients = [];
for (let i = 0; i < PATIENTS; i++) patients.push(await createPatient(t));
const seedStart = performance.now();
await seedAppointments(t, doctor, patients, APPOINTMENTS);
const seedMs = performance.now() - seedStart;

// The seed's change rows (two per appointment) would be written long before on a real server.
for (;;) {
  const { rows } = await t.platform.ctx.db.query<{ n: number }>(
    'select count(*)::int as n from realtime.change_log',
  );
  if (rows[0]?.n === 0) break;
  await new Promise((resolve) => setTimeout(resolve, 250));
}

const patient = patients[0]!;
const { rows: mine } = await t.platform.ctx.db.query<{ id: string }>(
  'select id from public.agendamentos where patient_id = $1 limit 1',
  [patient.id],
);
const ready: SyncBenchServer = {
  url: t.url,
  anonKey: t.anonKey,
  database: process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite (in memory)',
  appointments: APPOINTMENTS,
  seedMs,
  doctor: { email: doctor.email },
  patient: { email: patient.email, appointmentId: mine[0]!.id },
};
process.stdout.write(`${JSON.stringify(ready)}\n`);
process.on('SIGTERM', () => {
  void t.stop().finally(() => process.exit(0));
});
