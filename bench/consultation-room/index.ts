/**
 * The consultation room's call setup, measured on the real build in two headless Chromiums
 * with fake cameras and microphones: the time from the doctor's click on 'Iniciar consulta' to
 * the first remote video frame on each side, p50/p95 over BENCH_CALLS (10) calls, directly and
 * through TURN (`?transporte=relay`, Debian's coturn on loopback as the product's relay).
 * Between calls the doctor ends the call and both go back to the waiting room, so every call
 * negotiates from scratch on fresh connections.
 *
 * The baseline, measured in the same run on the same machine: two RTCPeerConnections inside
 * one page, connected to each other directly (no server, no signalling, no TURN), from
 * creating them to the first frame of the fake camera on the receiving side — what the
 * browser itself needs, so the ratios say what the product's signalling and relay add.
 * CPU: the doctor and the patient each have a browser of their own, and each browser's CPU time
 * (every one of its processes, from CDP's SystemInfo.getProcessInfo) is read over
 * BENCH_CPU_SECONDS (15) of a call — direct and through TURN — and over as long with the same
 * person's dashboard open and idle, in the same run; the ratio says what a call costs beside
 * an idle page of the product.
 *
 * Timings are reported, never asserted. Ports: BENCH_APP_PORT/BENCH_API_PORT (default 4183/54409).
 */
import { randomUUID } from 'node:crypto';
import { chromium, type Browser, type CDPSession, type Page } from '@playwright/test';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { Temporal } from 'temporal-polyfill';
import WebSocket from 'ws';
import { CHROMIUM_LAUNCH } from '../../e2e/chromium.ts';
import { DEV_JWT_SECRET } from '../../supabase/local/config.ts';
import { deriveApiKeys } from '../../supabase/local/api-keys.ts';
import { startCoturn } from '../../tests/support/coturn.ts';
import { cpfFor } from '../../sync/testing/index.ts';
import { startProduct, waitUntilUp } from '../product.ts';

const APP_PORT = Number(process.env.BENCH_APP_PORT ?? 4183);
const API_PORT = Number(process.env.BENCH_API_PORT ?? 54409);
const APP = `http://127.0.0.1:${APP_PORT}`;
const API = `http://127.0.0.1:${API_PORT}`;
const CALLS = Number(process.env.BENCH_CALLS ?? 10);
const CPU_SECONDS = Number(process.env.BENCH_CPU_SECONDS ?? 15);
const DATA_DIR = '.data/bench-room';
const PAULO = { id: 'a0000000-0000-4000-8000-000000000002', email: 'paulo.mendes@saudeja.example' };
const DOCTOR_PASSWORD = 'bench-doctor-123';
const PATIENT_PASSWORD = 'bench-patient-123';

async function admin(): Promise<SupabaseClient> {
  const { serviceRoleKey } = await deriveApiKeys(DEV_JWT_SECRET);
  return createClient(API, serviceRoleKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: WebSocket as unknown as typeof globalThis.WebSocket },
  });
}

/** A patient and a confirmed appointment with Dr. Paulo starting in ten minutes. */
async function seed(): Promise<{ id: string; patientEmail: string }> {
  const client = await admin();
  const patientEmail = `bench-room-${randomUUID().slice(0, 8)}@saudeja.example`;
  const created = await client.auth.admin.createUser({
    email: patientEmail,
    password: PATIENT_PASSWORD,
    email_confirm: true,
    user_metadata: { full_name: 'Paciente Bench', cpf: cpfFor(77), data_nasc: '1985-04-12' },
  });
  if (created.error) throw created.error;
  // The demo doctors' accounts are made while the product starts: wait for Paulo's.
  let doctor: { id: string } | undefined;
  for (let i = 0; i < 60 && !doctor; i++) {
    const users = await client.auth.admin.listUsers({ perPage: 1000 });
    doctor = users.data.users.find((u) => u.email === PAULO.email);
    if (!doctor) await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  if (!doctor) throw new Error(`${PAULO.email} is not seeded`);
  const updated = await client.auth.admin.updateUserById(doctor.id, {
    password: DOCTOR_PASSWORD,
    user_metadata: { require_password_change: false },
  });
  if (updated.error) throw updated.error;
  const { data: servico } = await client
    .from('servicos')
    .select('id')
    .eq('nome', 'Teleconsulta')
    .single<{ id: string }>();
  const start = Temporal.Now.zonedDateTimeISO('America/Sao_Paulo')
    .add({ minutes: 10 })
    .round({ smallestUnit: 'minute', roundingMode: 'floor' });
  const inserted = await client
    .from('agendamentos')
    .insert({
      patient_id: created.data.user.id,
      medico_id: PAULO.id,
      servico_id: servico!.id,
      appointment_date: start.toPlainDate().toString(),
      appointment_time: start.toPlainTime().toString(),
      horario_inicio: start.toInstant().toString(),
      horario_fim: start.add({ minutes: 30 }).toInstant().toString(),
      price_in_cents: 15000,
      status: 'confirmado',
      pagamento_status: 'pago',
    })
    .select('id')
    .single<{ id: string }>();
  if (inserted.error) throw inserted.error;
  return { id: inserted.data.id, patientEmail };
}

async function signedInPage(
  browser: Browser,
  loginPath: string,
  email: string,
  password: string,
): Promise<Page> {
  const context = await browser.newContext({ permissions: ['camera', 'microphone'] });
  const page = await context.newPage();
  page.on('console', (m) => m.type() === 'error' && console.error(`${loginPath}: ${m.text()}`));
  await page.goto(`${APP}${loginPath}`);
  const form = page.getByRole('form', { name: 'Entrar' });
  await form.getByLabel('E-mail').fill(email);
  await form.getByLabel('Senha', { exact: true }).fill(password);
  await form.getByRole('button', { name: 'Entrar' }).click();
  await page.waitForURL(/dashboard/);
  return page;
}

/** Epoch ms (the machine's clock, shared by both browsers) of the first remote frame. */
function firstRemoteFrame(page: Page): Promise<number> {
  return page
    .waitForFunction(
      () => {
        const video = document.querySelector<HTMLVideoElement>('[data-testid="remote-video"]');
        return video && video.readyState >= 2 && video.videoWidth > 0
          ? performance.timeOrigin + performance.now()
          : null;
      },
      undefined,
      { polling: 'raf', timeout: 60_000 },
    )
    .then((handle) => handle.jsonValue() as Promise<number>);
}

/** CPU seconds each process of a browser has used so far, by process id. */
async function cpuByProcess(browser: CDPSession): Promise<Map<number, number>> {
  const { processInfo } = await browser.send('SystemInfo.getProcessInfo');
  return new Map(processInfo.map((p) => [p.id, p.cpuTime]));
}

/**
 * Each browser's CPU over the next CPU_SECONDS, in cores (1 = one core busy all along): per
 * process, what it used since the start of the window (all of it if it started meanwhile). A
 * process that ended within the window (the camera's capture service after leaving a call)
 * drops out, rather than taking its whole lifetime's CPU out of the sum.
 */
async function cpuOver(browsers: CDPSession[]): Promise<number[]> {
  const before = await Promise.all(browsers.map(cpuByProcess));
  const started = performance.now();
  await new Promise((resolve) => setTimeout(resolve, CPU_SECONDS * 1000));
  const after = await Promise.all(browsers.map(cpuByProcess));
  const seconds = (performance.now() - started) / 1000;
  return after.map((processes, i) => {
    let used = 0;
    for (const [pid, cpu] of processes) used += cpu - (before[i]!.get(pid) ?? 0);
    return used / seconds;
  });
}

/** Both see the other's video; then each browser's CPU during the call; then back to waiting. */
async function cpuInCall(doctor: Page, patient: Page, browsers: CDPSession[]): Promise<number[]> {
  await doctor
    .getByTestId('patient-presence')
    .and(doctor.locator('[data-present="true"]'))
    .waitFor();
  const frames = Promise.all([firstRemoteFrame(doctor), firstRemoteFrame(patient)]);
  await doctor.getByRole('button', { name: 'Iniciar consulta' }).click();
  await frames;
  const cores = await cpuOver(browsers);
  await endCall(doctor, patient);
  return cores;
}

/** The doctor ends the call; both go back to the waiting room for the next one. */
async function endCall(doctor: Page, patient: Page): Promise<void> {
  await doctor.getByRole('button', { name: 'Encerrar' }).click();
  for (const page of [doctor, patient]) {
    await page.getByTestId('call-ended').waitFor();
    await page.getByRole('button', { name: 'Voltar para a sala de espera' }).click();
  }
}

/** One call: both in the waiting room, the doctor starts; returns both sides' setup times. */
async function oneCall(doctor: Page, patient: Page): Promise<[number, number]> {
  await doctor
    .getByTestId('patient-presence')
    .and(doctor.locator('[data-present="true"]'))
    .waitFor();
  const start = doctor.getByRole('button', { name: 'Iniciar consulta' });
  await start.waitFor();
  const doctorFrame = firstRemoteFrame(doctor);
  const patientFrame = firstRemoteFrame(patient);
  const clickedAt = await start.evaluate((button) => {
    (button as HTMLButtonElement).click();
    return performance.timeOrigin + performance.now();
  });
  const [d, p] = await Promise.all([doctorFrame, patientFrame]);
  await endCall(doctor, patient);
  return [d - clickedAt, p - clickedAt];
}

/** Both open the room (the check, then the waiting room) with the given query. */
async function enter(doctor: Page, patient: Page, id: string, query: string): Promise<void> {
  for (const [page, label] of [
    [patient, 'Entrar na sala de espera'],
    [doctor, 'Entrar na sala'],
  ] as const) {
    await page.evaluate(() => sessionStorage.clear());
    await page.goto(`${APP}/consulta/${id}${query}`);
    await page.locator('[data-testid="camera-check"][data-ok="true"]').waitFor();
    await page.getByRole('button', { name: label, exact: true }).click();
  }
}

/** The browser's own floor: two connections in one page, no server between them. */
async function loopbackSetup(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const stream = await navigator.mediaDevices.getUserMedia({ video: true, audio: true });
    const started = performance.now();
    const a = new RTCPeerConnection();
    const b = new RTCPeerConnection();
    a.onicecandidate = (e) => e.candidate && void b.addIceCandidate(e.candidate);
    b.onicecandidate = (e) => e.candidate && void a.addIceCandidate(e.candidate);
    for (const track of stream.getTracks()) a.addTrack(track, stream);
    const video = document.createElement('video');
    video.muted = true;
    video.playsInline = true;
    const frame = new Promise<number>((resolve) => {
      b.ontrack = (e) => {
        if (e.track.kind !== 'video') return;
        video.srcObject = new MediaStream([e.track]);
        void video.play();
        video.requestVideoFrameCallback(() => resolve(performance.now()));
      };
    });
    await a.setLocalDescription();
    await b.setRemoteDescription(a.localDescription!);
    await b.setLocalDescription();
    await a.setRemoteDescription(b.localDescription!);
    const at = await frame;
    a.close();
    b.close();
    for (const track of stream.getTracks()) track.stop();
    return at - started;
  });
}

function percentile(sorted: number[], p: number): number {
  const i = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, i)]!;
}

function report(what: string, samples: number[], baselineP50: number): void {
  const sorted = [...samples].sort((x, y) => x - y);
  const p50 = percentile(sorted, 50);
  const p95 = percentile(sorted, 95);
  console.log(
    `${what} (${sorted.length} calls): p50 ${p50.toFixed(0)} ms, p95 ${p95.toFixed(0)} ms = ${(p50 / baselineP50).toFixed(1)}× / ${(p95 / baselineP50).toFixed(1)}× the in-page loopback p50`,
  );
}

async function main(): Promise<void> {
  const turn = await startCoturn({ secret: 'segredo-do-bench', realm: 'saudeja.bench' });
  process.env.TURN_URLS = turn.urls.join(',');
  process.env.TURN_SECRET = turn.secret;
  const product = startProduct({ app: APP_PORT, api: API_PORT }, DATA_DIR);
  // A browser each, as the doctor and the patient have, so each one's CPU can be read.
  const launch = () =>
    chromium.launch({
      ...CHROMIUM_LAUNCH,
      args: [
        ...CHROMIUM_LAUNCH.args,
        '--use-fake-device-for-media-stream',
        '--use-fake-ui-for-media-stream',
      ],
    });
  const browsers = [await launch(), await launch()] as const;
  try {
    await waitUntilUp(`${API}/health`, 240_000);
    await waitUntilUp(APP, 240_000);
    const { id, patientEmail } = await seed();
    const [doctorBrowser, patientBrowser] = browsers;
    const doctor = await signedInPage(
      doctorBrowser,
      '/acesso-medico',
      PAULO.email,
      DOCTOR_PASSWORD,
    );
    const patient = await signedInPage(
      patientBrowser,
      '/acesso-paciente',
      patientEmail,
      PATIENT_PASSWORD,
    );
    const cdp = await Promise.all(browsers.map((b) => b.newBrowserCDPSession()));
    const inCall: Record<string, number[]> = {};

    const loopback: number[] = [];
    for (let i = 0; i < CALLS; i++) loopback.push(await loopbackSetup(patient));
    const baseline = percentile(
      [...loopback].sort((x, y) => x - y),
      50,
    );
    console.log(
      `baseline: two connections in one page, creation → first frame (${CALLS} runs): p50 ${baseline.toFixed(0)} ms, p95 ${percentile(
        [...loopback].sort((x, y) => x - y),
        95,
      ).toFixed(0)} ms`,
    );

    for (const [name, query] of [
      ['direct', ''],
      ['through TURN', '?transporte=relay'],
    ] as const) {
      await enter(doctor, patient, id, query);
      const doctorSide: number[] = [];
      const patientSide: number[] = [];
      await oneCall(doctor, patient); // warm-up: code loaded, devices open
      for (let i = 0; i < CALLS; i++) {
        const [d, p] = await oneCall(doctor, patient);
        doctorSide.push(d);
        patientSide.push(p);
      }
      report(`'Iniciar consulta' → first remote frame, doctor, ${name}`, doctorSide, baseline);
      report(`'Iniciar consulta' → first remote frame, patient, ${name}`, patientSide, baseline);
      inCall[name] = await cpuInCall(doctor, patient, cdp);
    }

    // The same two browsers with each person's dashboard open and nothing happening.
    await doctor.goto(`${APP}/medico/dashboard`);
    await patient.goto(`${APP}/paciente/dashboard`);
    for (const page of [doctor, patient]) await page.getByText('Sincronizado').first().waitFor();
    await new Promise((resolve) => setTimeout(resolve, 5000));
    const idle = await cpuOver(cdp);
    const percent = (cores: number) => `${(cores * 100).toFixed(1)} % of a core`;
    for (const [i, who] of (['doctor', 'patient'] as const).entries()) {
      for (const [name, cores] of Object.entries(inCall)) {
        // getProcessInfo counts in steps of 10 ms: an idle page may count none at all.
        const ratio =
          idle[i]! > 0
            ? `= ${(cores[i]! / idle[i]!).toFixed(1)}× the idle page`
            : '(the idle page used less than the 10 ms the browser counts)';
        console.log(
          `CPU of the ${who}'s browser, ${CPU_SECONDS} s: in a call ${name} ${percent(cores[i]!)}, idle dashboard ${percent(idle[i]!)} ${ratio}`,
        );
      }
    }
  } catch (e) {
    const pages = browsers.flatMap((b) => b.contexts()).flatMap((c) => c.pages());
    for (const [i, page] of pages.entries()) {
      await page.screenshot({ path: `/tmp/bench-room-${i}.png` }).catch(() => undefined);
    }
    throw e;
  } finally {
    await Promise.all(browsers.map((b) => b.close()));
    product.stop();
    await turn.stop();
  }
}

await main();
