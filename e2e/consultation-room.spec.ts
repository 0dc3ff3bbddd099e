import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { createClient } from '@supabase/supabase-js';
import { Temporal } from 'temporal-polyfill';
import WebSocket from 'ws';
import { E2E_API_URL, E2E_TURN } from '../playwright.config.ts';
import { DEV_JWT_SECRET } from '../supabase/local/config.ts';
import { deriveApiKeys } from '../supabase/local/api-keys.ts';
import { FIXED_DOCTORS } from '../supabase/functions/_shared/fixed-doctors.ts';
import { DISCONNECTED_GRACE_MS } from '../src/domain/call/reconnection.ts';
import { CHROMIUM_LAUNCH } from './chromium.ts';
import { adminClient, createPatientAccount, logInDoctor } from './doctor-support.ts';
import { logIn, randomCpf } from './support.ts';

/**
 * The consultation room with two real browsers: Chromium's fake camera (a moving test pattern)
 * and fake microphone (a beep), and its fake permission prompt that always allows.
 */
test.use({
  launchOptions: {
    ...CHROMIUM_LAUNCH,
    args: [
      ...CHROMIUM_LAUNCH.args,
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
    ],
  },
});

const SHOTS = process.env.ROOM_SHOTS_DIR ?? 'test-results/e2e/screenshots/consultation-room';
mkdirSync(SHOTS, { recursive: true });

const COTURN_PID_FILE = join(E2E_TURN.workDir, 'turnserver.pid');

const SIZES = [
  { name: 'desktop', viewport: { width: 1280, height: 800 } },
  { name: 'mobile', viewport: { width: 390, height: 844 } },
] as const;

/**
 * Every RTCPeerConnection the page makes, kept on `window` so the test can read getStats():
 * the browser's own class, only counted.
 */
const COUNT_PEER_CONNECTIONS = () => {
  const Native = window.RTCPeerConnection;
  const all: RTCPeerConnection[] = [];
  (window as unknown as { __peerConnections: RTCPeerConnection[] }).__peerConnections = all;
  window.RTCPeerConnection = class extends Native {
    constructor(config?: RTCConfiguration) {
      super(config);
      all.push(this);
    }
  };
};

type Inbound = { frames: number; audioPackets: number; audioEnergy: number; relay: boolean };

/** What the page's live call connection receives, from its getStats(). */
async function inbound(page: Page): Promise<Inbound> {
  return page.evaluate(async () => {
    const all = (window as unknown as { __peerConnections: RTCPeerConnection[] }).__peerConnections;
    const pc = [...all].reverse().find((p) => p.connectionState === 'connected');
    const result = { frames: 0, audioPackets: 0, audioEnergy: 0, relay: false };
    if (!pc) return result;
    const report = await pc.getStats();
    let pairId: string | undefined;
    report.forEach((s: Record<string, unknown>) => {
      if (s.type === 'inbound-rtp' && s.kind === 'video')
        result.frames += Number(s.framesDecoded ?? 0);
      if (s.type === 'inbound-rtp' && s.kind === 'audio') {
        result.audioPackets += Number(s.packetsReceived ?? 0);
        result.audioEnergy += Number(s.totalAudioEnergy ?? 0);
      }
      if (s.type === 'transport' && typeof s.selectedCandidatePairId === 'string') {
        pairId = s.selectedCandidatePairId;
      }
    });
    const pair = pairId ? (report.get(pairId) as Record<string, unknown> | undefined) : undefined;
    const local = pair
      ? (report.get(String(pair.localCandidateId)) as Record<string, unknown>)
      : undefined;
    result.relay = local?.candidateType === 'relay';
    return result;
  });
}

/** A video element of the page shows frames (before a screenshot). */
async function videoPlaying(page: Page, testId: string): Promise<void> {
  await expect
    .poll(() => page.getByTestId(testId).evaluate((v) => (v as HTMLVideoElement).readyState >= 2))
    .toBe(true);
}

/** Video frames and audio packets from the other side keep arriving. */
async function expectMediaFlowing(page: Page): Promise<void> {
  const before = await inbound(page);
  await expect
    .poll(
      async () => {
        const now = await inbound(page);
        return now.frames > before.frames + 10 && now.audioPackets > before.audioPackets + 20;
      },
      { timeout: 20_000 },
    )
    .toBe(true);
}

async function expectVideoStopped(page: Page): Promise<void> {
  await expect
    .poll(
      async () => {
        const a = await inbound(page);
        await page.waitForTimeout(1500);
        const b = await inbound(page);
        return b.frames - a.frames;
      },
      { timeout: 15_000 },
    )
    .toBeLessThanOrEqual(1);
}

/** The fake microphone beeps every second: over two seconds a live one adds energy, a muted one none. */
async function audioEnergyOver2s(page: Page): Promise<number> {
  const a = await inbound(page);
  await page.waitForTimeout(2000);
  const b = await inbound(page);
  return b.audioEnergy - a.audioEnergy;
}

/** The ICE username fragment of the page's live call connection (it changes on an ICE restart). */
async function iceUfrag(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const all = (window as unknown as { __peerConnections: RTCPeerConnection[] }).__peerConnections;
    const pc = [...all].reverse().find((p) => p.signalingState !== 'closed');
    return pc?.localDescription?.sdp.match(/^a=ice-ufrag:(.+)$/m)?.[1]?.trim() ?? null;
  });
}

/** How many RTCPeerConnections the page has made (a new connection is not an ICE restart). */
function peerConnectionCount(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      (window as unknown as { __peerConnections: RTCPeerConnection[] }).__peerConnections.length,
  );
}

/**
 * Cuts the media path of a call that goes only through the e2e's coturn (a browser's
 * `?transporte=relay`): the relay is frozen for `seconds`, so no packet of the call passes while
 * the page stays online (Chromium's offline switch never touches WebRTC's own sockets, and
 * an offline page leaves the call altogether). The relay is the coturn this e2e run started
 * (playwright.config.ts), paused and resumed by its pid.
 */
async function withRelayCut(page: Page, seconds: number): Promise<void> {
  const pid = Number(readFileSync(COTURN_PID_FILE, 'utf8').trim());
  const cutAt = Date.now();
  process.kill(pid, 'SIGSTOP');
  try {
    // The call notices the dead link while it is down.
    await expect(page.getByTestId('in-call')).toHaveAttribute('data-phase', 'reconnecting', {
      timeout: seconds * 1000,
    });
    // A loaded machine's browser may notice late: the cut then lasts until the link has been
    // down for longer than the controller waits before restarting ICE, so a restart is due.
    const noticedAt = Date.now();
    const until = Math.max(cutAt + seconds * 1000, noticedAt + DISCONNECTED_GRACE_MS + 2000);
    await page.waitForTimeout(until - Date.now());
  } finally {
    process.kill(pid, 'SIGCONT');
  }
}

/** A confirmed, paid appointment with Dr. Paulo starting in ten minutes (the room is open). */
async function appointmentSoon(patientName: string) {
  const cpf = randomCpf();
  const account = await createPatientAccount(patientName, cpf);
  const admin = await adminClient();
  const { data: person } = await admin
    .from('perfis_usuarios')
    .select('id')
    .eq('email', account.email)
    .single<{ id: string }>();
  const { data: servico } = await admin
    .from('servicos')
    .select('id')
    .eq('nome', 'Teleconsulta')
    .single<{ id: string }>();
  const start = Temporal.Now.zonedDateTimeISO('America/Sao_Paulo')
    .add({ minutes: 10 })
    .round({ smallestUnit: 'minute', roundingMode: 'floor' });
  const inserted = await admin
    .from('agendamentos')
    .insert({
      patient_id: person!.id,
      medico_id: FIXED_DOCTORS.paulo.medicoId,
      servico_id: servico!.id,
      appointment_date: start.toPlainDate().toString(),
      appointment_time: start.toPlainTime().toString(),
      horario_inicio: start.toInstant().toString(),
      horario_fim: start.add({ minutes: 30 }).toInstant().toString(),
      price_in_cents: 15000,
      status: 'confirmado',
      pagamento_status: 'pago',
      pagamento_confirmado_em: Temporal.Now.instant().toString(),
    })
    .select('id')
    .single<{ id: string }>();
  if (inserted.error) throw inserted.error;
  return { id: inserted.data.id, account };
}

/** Frees Dr. Paulo's slot for the next run (appointments of one doctor may not overlap). */
async function release(id: string): Promise<void> {
  const admin = await adminClient();
  await admin.from('agendamentos').update({ status: 'cancelado' }).eq('id', id);
}

async function roomContext(browser: Browser, viewport: { width: number; height: number }) {
  const context = await browser.newContext({ viewport, permissions: ['camera', 'microphone'] });
  await context.addInitScript(COUNT_PEER_CONNECTIONS);
  return { context, page: await context.newPage() };
}

/** A third account's join of the room's private channel, through supabase-js as the app does it. */
async function strangerJoin(agendamentoId: string): Promise<string> {
  const account = await createPatientAccount('Paciente Intruso', randomCpf());
  const { anonKey } = await deriveApiKeys(DEV_JWT_SECRET);
  const stranger = createClient(E2E_API_URL, anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: WebSocket as unknown as typeof globalThis.WebSocket },
  });
  const signedIn = await stranger.auth.signInWithPassword(account);
  if (signedIn.error) throw signedIn.error;
  await stranger.realtime.setAuth(signedIn.data.session.access_token);
  const status = await new Promise<string>((resolve) => {
    stranger
      .channel(`consulta:${agendamentoId}`, { config: { private: true } })
      .subscribe((s, err) => {
        const status = String(s);
        if (status !== 'SUBSCRIBED' && status !== 'CHANNEL_ERROR') return;
        resolve(status === 'SUBSCRIBED' ? status : `${status}: ${err?.message ?? ''}`);
      });
  });
  await stranger.removeAllChannels();
  return status;
}

for (const size of SIZES) {
  test(`two people hold the consultation in the room (${size.name})`, async ({ browser }) => {
    test.setTimeout(240_000);
    const { id, account } = await appointmentSoon(`Paciente Sala ${size.name}`);
    const doctor = await roomContext(browser, size.viewport);
    const patient = await roomContext(browser, size.viewport);
    try {
      await logInDoctor(doctor.page, 'paulo');
      await logIn(patient.page, account.email, account.password);

      // The patient enters from the card, checks camera and microphone, and waits.
      const card = patient.page.locator(`[data-appointment-id="${id}"]`);
      await card.getByRole('button', { name: 'Entrar na sala' }).click();
      await expect(patient.page).toHaveURL(new RegExp(`/consulta/${id}$`));
      await expect(
        patient.page.getByRole('heading', { name: 'Testar câmera e microfone' }),
      ).toBeVisible();
      await expect(patient.page.getByTestId('camera-check')).toHaveAttribute('data-ok', 'true');
      await expect(patient.page.getByTestId('microphone-check')).toHaveAttribute('data-ok', 'true');
      await expect(patient.page.getByTestId('connection-check')).toHaveAttribute(
        'data-ok',
        /true|false/,
      );
      await patient.page.screenshot({ path: `${SHOTS}/precall-${size.name}.png`, fullPage: true });
      await patient.page.getByRole('button', { name: 'Entrar na sala de espera' }).click();
      await expect(patient.page.getByText('Aguardando o médico…')).toBeVisible();
      await videoPlaying(patient.page, 'local-video');
      await patient.page.screenshot({ path: `${SHOTS}/waiting-${size.name}.png`, fullPage: true });

      // The doctor's hoje shows it live, without a reload.
      await doctor.page.goto('/medico/dashboard/hoje');
      const row = doctor.page.locator(
        `[data-testid="today-appointment"][data-appointment-id="${id}"]`,
      );
      await expect(row.getByText(/Paciente na sala de espera desde/)).toBeVisible({
        timeout: 20_000,
      });
      await row.getByRole('link', { name: 'Entrar na sala' }).click();
      await expect(doctor.page).toHaveURL(new RegExp(`/consulta/${id}$`));
      await doctor.page.getByRole('button', { name: 'Entrar na sala' }).click();
      await expect(doctor.page.getByTestId('patient-presence')).toHaveText(
        'O paciente está na sala de espera.',
      );
      await videoPlaying(doctor.page, 'local-video');
      await doctor.page.screenshot({
        path: `${SHOTS}/doctor-waiting-${size.name}.png`,
        fullPage: true,
      });
      await doctor.page.getByRole('button', { name: 'Iniciar consulta' }).click();

      // Both receive the other's video and sound.
      for (const side of [doctor.page, patient.page]) {
        await expect(side.getByTestId('in-call')).toHaveAttribute('data-phase', 'connected');
        await expectMediaFlowing(side);
      }
      await patient.page.screenshot({
        path: `${SHOTS}/call-patient-${size.name}.png`,
        fullPage: true,
      });
      await doctor.page.screenshot({
        path: `${SHOTS}/call-doctor-${size.name}.png`,
        fullPage: true,
      });

      // Mute reaches the doctor: the badge, and silence in the audio that arrives.
      expect(await audioEnergyOver2s(doctor.page)).toBeGreaterThan(0);
      await patient.page.getByRole('button', { name: 'Desligar microfone' }).click();
      await expect(doctor.page.getByTestId('peer-muted')).toBeVisible();
      await expect
        .poll(() => audioEnergyOver2s(doctor.page), { timeout: 15_000 })
        .toBeLessThan(1e-6);
      await patient.page.getByRole('button', { name: 'Ligar microfone' }).click();
      await expect(doctor.page.getByTestId('peer-muted')).toHaveCount(0);

      // Camera off reaches the doctor: the badge, and no more frames.
      await patient.page.getByRole('button', { name: 'Desligar câmera' }).click();
      await expect(doctor.page.getByTestId('peer-camera-off')).toBeVisible();
      await expectVideoStopped(doctor.page);
      await patient.page.getByRole('button', { name: 'Ligar câmera' }).click();
      await expect(doctor.page.getByTestId('peer-camera-off')).toHaveCount(0);
      await expectMediaFlowing(doctor.page);

      // 'Só áudio' reaches the doctor: the notice, and no more frames; off again, video returns.
      await patient.page.getByRole('button', { name: 'Só áudio' }).click();
      await expect(patient.page.getByTestId('notice-manual')).toBeVisible();
      await expect(doctor.page.getByTestId('notice-peer-audio')).toHaveText(
        'O outro participante está só com áudio.',
      );
      await expectVideoStopped(doctor.page);
      await patient.page.getByRole('button', { name: 'Só áudio' }).click();
      await expect(doctor.page.getByTestId('notice-peer-audio')).toHaveCount(0);
      await expectMediaFlowing(doctor.page);

      // The patient's browser goes offline for 8 s: the room says the call needs a connection,
      // and the patient is back in the same call by itself, without a reload.
      await patient.context.setOffline(true);
      await expect(patient.page.getByText('Sem conexão com a internet')).toBeVisible();
      await patient.page.waitForTimeout(8000);
      await patient.context.setOffline(false);
      for (const side of [doctor.page, patient.page]) {
        await expect(side.getByTestId('in-call')).toHaveAttribute('data-phase', 'connected', {
          timeout: 30_000,
        });
        await expectMediaFlowing(side);
      }

      // A reload puts the patient straight back into the same call.
      await patient.page.reload();
      await expect(patient.page.getByTestId('in-call')).toHaveAttribute('data-phase', 'connected', {
        timeout: 30_000,
      });
      await expectMediaFlowing(patient.page);
      await expectMediaFlowing(doctor.page);

      // The patient reopens the room with the call only through the relay, then the call's
      // packets stop for 8 s while the page stays up: 'Reconectando…', an ICE restart (a new
      // ICE username fragment on the same connection), and the call comes back by itself.
      await patient.page.goto(`/consulta/${id}?transporte=relay`);
      await expect(patient.page.getByTestId('in-call')).toHaveAttribute('data-phase', 'connected', {
        timeout: 30_000,
      });
      await expectMediaFlowing(patient.page);
      expect((await inbound(patient.page)).relay).toBe(true);
      const ufragBefore = await iceUfrag(patient.page);
      const connectionsBefore = await peerConnectionCount(patient.page);
      expect(ufragBefore).toBeTruthy();
      await withRelayCut(patient.page, 8);
      for (const side of [doctor.page, patient.page]) {
        await expect(side.getByTestId('in-call')).toHaveAttribute('data-phase', 'connected', {
          timeout: 30_000,
        });
        await expectMediaFlowing(side);
      }
      const ufragAfter = await iceUfrag(patient.page);
      expect(ufragAfter).toBeTruthy();
      expect(ufragAfter).not.toBe(ufragBefore);
      expect(await peerConnectionCount(patient.page)).toBe(connectionsBefore);

      // Nobody else gets in: the server refuses a third account's join of the channel.
      expect(await strangerJoin(id)).toMatch(/^CHANNEL_ERROR/);

      // The doctor ends the call; check-in is one tap; the card shows what was recorded.
      await doctor.page.getByRole('button', { name: 'Encerrar' }).click();
      await expect(doctor.page.getByTestId('call-ended')).toBeVisible();
      await expect(patient.page.getByTestId('call-ended')).toBeVisible();
      await expect(
        patient.page.getByText('A chamada foi encerrada pelo outro participante.'),
      ).toBeVisible();
      await doctor.page.getByRole('button', { name: 'Fazer Check-in' }).click();
      await expect(doctor.page.getByText('Check-in registrado.')).toBeVisible();
      // The checked-in appointment is still today's: hoje shows what the room recorded.
      await doctor.page.goto('/medico/dashboard/hoje');
      await expect(
        doctor.page
          .locator(`[data-testid="today-appointment"][data-appointment-id="${id}"]`)
          .getByText(/Chamada das \d\d:\d\d às \d\d:\d\d/),
      ).toBeVisible({ timeout: 20_000 });

      const admin = await adminClient();
      const { data: row2 } = await admin
        .from('agendamentos')
        .select(
          'status, sala_paciente_entrou_em, chamada_iniciada_em, chamada_encerrada_em, chamada_duracao_segundos, chamada_so_audio',
        )
        .eq('id', id)
        .single<Record<string, unknown>>();
      expect(row2).toMatchObject({ status: 'atendido' });
      expect(row2!.sala_paciente_entrou_em).toBeTruthy();
      expect(row2!.chamada_iniciada_em).toBeTruthy();
      expect(row2!.chamada_encerrada_em).toBeTruthy();
      expect(Number(row2!.chamada_duracao_segundos)).toBeGreaterThan(0);
      // 'Só áudio' was used: the appointment says the call fell back to audio.
      expect(row2!.chamada_so_audio).toBe(true);
    } finally {
      await release(id);
      await doctor.context.close();
      await patient.context.close();
    }
  });
}

test('a call forced through TURN connects on a relay candidate pair', async ({ browser }) => {
  test.setTimeout(180_000);
  const { id, account } = await appointmentSoon('Paciente Sala TURN');
  const viewport = { width: 1280, height: 800 };
  const doctor = await roomContext(browser, viewport);
  const patient = await roomContext(browser, viewport);
  try {
    await logInDoctor(doctor.page, 'paulo');
    await logIn(patient.page, account.email, account.password);
    // `?transporte=relay`: iceTransportPolicy 'relay', only TURN candidates on both sides.
    await patient.page.goto(`/consulta/${id}?transporte=relay`);
    await expect(patient.page.getByTestId('connection-check')).toHaveAttribute('data-ok', 'true');
    await expect(
      patient.page.getByTestId('connection-check').locator('[data-result]'),
    ).toHaveAttribute('data-result', 'relay');
    await patient.page.getByRole('button', { name: 'Entrar na sala de espera' }).click();
    await doctor.page.goto(`/consulta/${id}?transporte=relay`);
    await doctor.page.getByRole('button', { name: 'Entrar na sala' }).click();
    await expect(doctor.page.getByTestId('patient-presence')).toHaveAttribute(
      'data-present',
      'true',
    );
    await doctor.page.getByRole('button', { name: 'Iniciar consulta' }).click();
    for (const side of [doctor.page, patient.page]) {
      await expect(side.getByTestId('in-call')).toHaveAttribute('data-phase', 'connected');
      await expectMediaFlowing(side);
      expect((await inbound(side)).relay).toBe(true);
    }
  } finally {
    await release(id);
    await doctor.context.close();
    await patient.context.close();
  }
});
