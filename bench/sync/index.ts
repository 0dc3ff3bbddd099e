/**
 * bench/sync: (1) initial sync of 10,000 appointments of one doctor into a fresh replica —
 * goal ≥ 5,000 appointments/s in Node (RxDB + Dexie on fake-indexeddb); the same sync in
 * Chromium (real IndexedDB), goal ≥ 10,000 rows/s over all collections, with its ratio to the
 * Node run of the same process; (2) Realtime propagation from an RPC on one client to another
 * client's replica — goal p95 < 100 ms on loopback. BENCH_SYNC_PROFILE=<file> writes
 * Chromium's CPU profile of its sync there (DevTools, Performance panel). Beside the Chromium
 * sync's rate it prints the CPU time of the page's renderer, of Chromium's other processes
 * (IndexedDB's backend) and of the server: on two cores the three share the machine.
 *
 * The platform (supabase/local) runs in a child process (bench/sync/server.ts): in production
 * the server never shares the browser's thread, and in one process the REST work over PGlite
 * (about a fifth of the CPU of a sync) was counted against the replica. The CPU figure below
 * is the replica's alone. PGlite by default; PostgreSQL with DATABASE_URL.
 */
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { filter, firstValueFrom } from 'rxjs';
import { Device } from '../../sync/testing/device.ts';
import { PASSWORD } from '../../sync/testing/people.ts';
import { testClient } from '../../sync/testing/platform.ts';
import { startChild } from '../child.ts';
import { processCpuUs } from '../cpu.ts';
import { chromiumInitialSync } from './chromium.ts';
import type { SyncBenchServer } from './server.ts';

const GOAL_PER_SECOND = 5_000;
const CHROMIUM_GOAL_ROWS_PER_SECOND = 10_000;
const PROPAGATIONS = 60;
const WARMUP = 5;

function percentile(sorted: number[], p: number): number {
  const i = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, i)] ?? NaN;
}

function printSync(
  where: string,
  s: SyncBenchServer,
  run: { appointments: number; rows: number; collections: number; syncMs: number },
  goal: string,
): void {
  const perSecond = (n: number) => Math.round(n / (run.syncMs / 1000));
  console.log(
    `initial sync (doctor, fresh replica, ${where}): ${run.appointments} appointments, ` +
      `${run.rows} rows in all ${run.collections} collections, ${run.syncMs.toFixed(0)} ms`,
  );
  console.log(
    `  appointments: ${perSecond(s.appointments)} rows/s; all rows: ${perSecond(run.rows)} rows/s ` +
      `(${goal})`,
  );
}

const server = await startChild<SyncBenchServer>(
  fileURLToPath(new URL('./server.ts', import.meta.url)),
);
const s = server.ready;
try {
  console.log(`database: ${s.database}, in a child process`);
  console.log(`seeded ${s.appointments} appointments in ${s.seedMs.toFixed(0)} ms`);

  // (1) Initial sync into a fresh replica, Node.
  const laptop = new Device(s);
  const doctorId = await laptop.signIn(s.doctor.email);
  const syncStart = performance.now();
  const cpuStart = process.cpuUsage();
  const engine = await laptop.start({ id: doctorId, role: 'medico' });
  await engine.awaitInitialSync();
  const syncMs = performance.now() - syncStart;
  const cpu = process.cpuUsage(cpuStart);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const status = await firstValueFrom(engine.status$);
  const appointments = await firstValueFrom(
    engine.appointments$.pipe(filter((l) => l.length === s.appointments)),
  );
  const rows = status.initialSync.rowsReceived;
  printSync(
    'Dexie on fake-indexeddb, Node',
    s,
    {
      appointments: appointments.length,
      rows,
      collections: status.initialSync.total,
      syncMs,
    },
    `goal ≥ ${GOAL_PER_SECOND} appointments/s`,
  );
  console.log(
    `  CPU time of the replica's process during the sync: ${cpuMs.toFixed(0)} ms ` +
      `→ ${Math.round(rows / (cpuMs / 1000))} rows per CPU-second; ` +
      `load average ${loadavg()[0]?.toFixed(1)} on ${cpus().length} cores`,
  );
  await laptop.stop();

  // (1b) The same sync in Chromium.
  const serverCpuStart = processCpuUs(server.pid);
  const browserRun = await chromiumInitialSync(s, process.env.BENCH_SYNC_PROFILE);
  const serverCpuMs = (processCpuUs(server.pid) - serverCpuStart) / 1000;
  printSync(
    `Dexie on IndexedDB, Chromium ${browserRun.version}`,
    s,
    browserRun,
    `goal ≥ ${CHROMIUM_GOAL_ROWS_PER_SECOND} rows/s over all collections`,
  );
  console.log(
    `  page's main thread busy from sign-in to the listed appointments and sign-out: ` +
      `${browserRun.taskMs.toFixed(0)} ms (CDP TaskDuration; less sensitive to load than the wall clock)`,
  );
  const { renderer, other } = browserRun.cpuMs;
  console.log(
    `  CPU time in that window: Chromium's renderer ${renderer.toFixed(0)} ms, its other ` +
      `processes (IndexedDB's backend) ${other.toFixed(0)} ms, the server ${serverCpuMs.toFixed(0)} ms (over the whole Chromium leg) ` +
      `→ ${Math.round(browserRun.rows / ((renderer + other + serverCpuMs) / 1000))} rows per CPU-second`,
  );
  const { transactions, requests } = browserRun.idb;
  const total = Object.values(requests).reduce((a, b) => a + b, 0);
  console.log(
    `  IndexedDB during the sync: ${total} requests (${(total / browserRun.rows).toFixed(3)} per row: ` +
      Object.entries(requests)
        .sort(([, a], [, b]) => b - a)
        .map(([method, n]) => `${method} ${n}`)
        .join(', ') +
      `), ${transactions} transactions`,
  );
  console.log(
    `  Chromium / Node, same rows, same run: ${(syncMs / browserRun.syncMs).toFixed(2)}× the ` +
      `rows per second; load average ${loadavg()[0]?.toFixed(1)} on ${cpus().length} cores`,
  );

  // (2) Realtime propagation: an RPC by the doctor's client, observed in the patient's replica.
  const phone = new Device(s);
  const phoneEngine = await phone.start({
    id: await phone.signIn(s.patient.email),
    role: 'paciente',
  });
  await phoneEngine.awaitInitialSync();
  const doctorClient = testClient(s.url, s.anonKey);
  const signedIn = await doctorClient.auth.signInWithPassword({
    email: s.doctor.email,
    password: PASSWORD,
  });
  if (signedIn.error) throw signedIn.error;
  const appointmentId = s.patient.appointmentId;
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
  await server.stop();
}
