/**
 * bench/sync: (1) initial sync of 10,000 appointments of one doctor into a fresh replica
 * (RxDB + Dexie on fake-indexeddb, Node) — goal ≥ 5,000 rows/s; (2) Realtime propagation
 * from an RPC on one client to another client's replica — goal p95 < 100 ms on loopback.
 * PGlite by default; PostgreSQL with DATABASE_URL.
 */
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { filter, firstValueFrom } from 'rxjs';
import {
  Device,
  createDoctor,
  createPatient,
  signedInClient,
  slot,
  startSyncPlatform,
} from '../../tests/sync/support.ts';

const APPOINTMENTS = 10_000;
const PATIENTS = 20;
const PROPAGATIONS = 60;
const WARMUP = 5;

function percentile(sorted: number[], p: number): number {
  const i = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, i)] ?? NaN;
}

const t = await startSyncPlatform();

/**
 * Lets the local Realtime service deliver the change backlog of the seed (20,000 change rows,
 * written long before on a real server) and wakes the HTTP connection, which sat idle while
 * the in-process database was busy and is reset on first use.
 */
async function settle(): Promise<void> {
  for (;;) {
    const { rows } = await t.platform.ctx.db.query<{ n: number }>(
      'select count(*)::int as n from realtime.change_log',
    );
    if (rows[0]?.n === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await fetch(`${t.url}/health`).catch(() => undefined);
}
try {
  const doctor = await createDoctor(t, { name: 'Dra. Bench' });
  const patients = [];
  for (let i = 0; i < PATIENTS; i++) patients.push(await createPatient(t));
  const { rows: service } = await t.platform.ctx.db.query<{ id: string }>(
    `select id from public.servicos where nome = 'Teleconsulta'`,
  );
  const seedStart = performance.now();
  // Seeded in SQL (bypassing the booking RPC) so the bench measures sync, not booking.
  await t.platform.ctx.db.query(
    `insert into public.agendamentos (patient_id, medico_id, servico_id, appointment_date,
       appointment_time, horario_inicio, horario_fim, price_in_cents, mutation_id)
     select ($1::uuid[])[1 + i % array_length($1::uuid[], 1)], $2, $3,
            ((s + i * interval '30 minutes') at time zone 'America/Sao_Paulo')::date,
            ((s + i * interval '30 minutes') at time zone 'America/Sao_Paulo')::time,
            s + i * interval '30 minutes', s + (i + 1) * interval '30 minutes', 15000,
            gen_random_uuid()
     from generate_series(0, $4::int - 1) i, (select $5::timestamptz as s) start`,
    [patients.map((p) => p.id), doctor.medicoId, service[0]!.id, APPOINTMENTS, slot(0)],
  );
  const seedMs = performance.now() - seedStart;
  await settle();

  // (1) Initial sync into a fresh replica.
  const laptop = new Device(t);
  const doctorId = await laptop.signIn(doctor.email);
  const syncStart = performance.now();
  const cpuStart = process.cpuUsage();
  const engine = await laptop.start({ id: doctorId, role: 'medico' }, { pullBatchSize: 1_000 });
  await engine.awaitInitialSync();
  const syncMs = performance.now() - syncStart;
  const cpu = process.cpuUsage(cpuStart);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const status = await firstValueFrom(engine.status$);
  const appointments = await firstValueFrom(
    engine.appointments$.pipe(filter((l) => l.length === APPOINTMENTS)),
  );
  const rowsPerSecond = (n: number) => Math.round(n / (syncMs / 1000));
  console.log(`database: ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite (in memory)'}`);
  console.log(`seeded ${APPOINTMENTS} appointments in ${seedMs.toFixed(0)} ms`);
  console.log(
    `initial sync (doctor, fresh replica, Dexie on fake-indexeddb): ${appointments.length} appointments, ` +
      `${status.initialSync.rowsReceived} rows in all ${status.initialSync.total} collections, ${syncMs.toFixed(0)} ms`,
  );
  console.log(
    `  appointments: ${rowsPerSecond(APPOINTMENTS)} rows/s; all rows: ${rowsPerSecond(status.initialSync.rowsReceived)} rows/s (goal ≥ 5000 rows/s)`,
  );
  console.log(
    `  CPU time of the whole process (client + in-process server) during the sync: ${cpuMs.toFixed(0)} ms ` +
      `→ ${Math.round(status.initialSync.rowsReceived / (cpuMs / 1000))} rows per CPU-second; ` +
      `load average ${loadavg()[0]?.toFixed(1)} on ${cpus().length} cores`,
  );
  await laptop.stop();

  // (2) Realtime propagation: an RPC by the doctor's client, observed in the patient's replica.
  const patient = patients[0]!;
  const phone = new Device(t);
  const phoneEngine = await phone.start({
    id: await phone.signIn(patient.email),
    role: 'paciente',
  });
  await phoneEngine.awaitInitialSync();
  const doctorClient = await signedInClient(t, doctor);
  const { data: mine } = await t.admin
    .from('agendamentos')
    .select('id')
    .eq('patient_id', patient.id)
    .limit(1)
    .single();
  const appointmentId = (mine as { id: string }).id;
  const samples: number[] = [];
  for (let i = 0; i < WARMUP + PROPAGATIONS; i++) {
    const link = `https://meet.example.com/bench-${i}`;
    const seen = firstValueFrom(
      phoneEngine.appointment$(appointmentId).pipe(filter((a) => a?.meeting_link === link)),
    );
    const start = performance.now();
    const { error } = await doctorClient.rpc('medico_salvar_link', {
      p_agendamento_id: appointmentId,
      p_link: link,
    });
    if (error) throw new Error(error.message);
    await seen;
    if (i >= WARMUP) samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  console.log(
    `realtime propagation RPC → other client's replica (${PROPAGATIONS} samples): ` +
      `p50 ${percentile(samples, 50).toFixed(1)} ms, p95 ${percentile(samples, 95).toFixed(1)} ms, ` +
      `max ${samples[samples.length - 1]!.toFixed(1)} ms (goal p95 < 100 ms)`,
  );
  await phone.stop();
  await doctorClient.removeAllChannels();
} finally {
  await t.stop();
}
