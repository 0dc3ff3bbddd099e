import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RoomEvent } from '@/domain/rules/consultation-room.ts';
import { DROP_AFTER, RESTORE_AFTER, SAMPLE_INTERVAL_MS } from '@/domain/call/audio-only-rule.ts';
import { good, lossy, recording, repeat } from '@/domain/call/recorded-stats.ts';
import { DISCONNECTED_GRACE_MS } from '@/domain/call/reconnection.ts';
import { CallController } from './call-controller.ts';
import {
  InMemoryChannel,
  InMemoryMedia,
  InMemoryNetwork,
  type InMemoryPeerConnection,
} from './in-memory-call.ts';
import type { RoomRole } from './signalling.ts';

/**
 * The call controller's state machine, two controllers holding a call with each other through
 * an in-memory channel and in-memory peer connections (in-memory-call.ts). What the browser
 * itself does with the media is the e2e's part (e2e/consultation-room.spec.ts).
 */

/** Lets every queued delivery and connection step run (each is a task later). */
async function settle(): Promise<void> {
  for (let i = 0; i < 80; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

type Side = {
  controller: CallController;
  media: InMemoryMedia;
  pc: () => InMemoryPeerConnection;
};

function room() {
  const net = new InMemoryNetwork();
  const channel = new InMemoryChannel();
  const records: { role: RoomRole; event: RoomEvent }[] = [];
  let sessions = 0;
  const sides: CallController[] = [];
  const enter = (role: RoomRole, opts: { resume?: boolean } = {}): Side => {
    const media = new InMemoryMedia(role);
    const controller = new CallController({
      role,
      sessionId: `${role}-session-${++sessions}`,
      media,
      signalling: channel.as(`${role}-user`),
      rtc: net.side(role),
      iceServers: () => Promise.resolve([]),
      record: (event) => records.push({ role, event }),
      resume: opts.resume ?? false,
    });
    sides.push(controller);
    return {
      controller,
      media,
      pc: () => {
        const pc = net.latest(role);
        if (!pc) throw new Error(`no connection on the ${role}'s side`);
        return pc;
      },
    };
  };
  const dispose = () => Promise.all(sides.map((c) => c.dispose()));
  return { net, channel, records, enter, dispose };
}

type Room = ReturnType<typeof room>;

/** The track a side sends for one kind. */
function sending(pc: InMemoryPeerConnection, kind: 'audio' | 'video'): unknown {
  return pc.getTransceivers().find((t) => t.receiver.track.kind === kind)?.sender.track ?? null;
}

/** Both in the room; the doctor starts; the link comes up. */
async function connectedCall(r: Room): Promise<{ doctor: Side; patient: Side }> {
  const patient = r.enter('paciente');
  const doctor = r.enter('medico');
  await patient.controller.join();
  await doctor.controller.join();
  await settle();
  doctor.controller.startCall();
  await settle();
  expect(r.net.linkUp()).toBe(true);
  return { doctor, patient };
}

let current: Room | null = null;
const newRoom = () => (current = room());

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
});

afterEach(async () => {
  await current?.dispose();
  current = null;
  vi.useRealTimers();
});

describe('CallController: waiting room and start', () => {
  it('the patient waits for the doctor; the doctor sees it and starts; both connect with each other’s tracks', async () => {
    const r = newRoom();
    const patient = r.enter('paciente');
    const doctor = r.enter('medico');
    await patient.controller.join();
    await settle();
    expect(patient.controller.snapshot()).toMatchObject({ phase: 'waiting', peer: null });
    // A patient cannot start the call alone.
    patient.controller.startCall();
    await settle();
    expect(r.net.connections).toHaveLength(0);

    await doctor.controller.join();
    await settle();
    expect(doctor.controller.snapshot().peer).toMatchObject({ role: 'paciente', inCall: false });
    expect(patient.controller.snapshot().phase).toBe('waiting');

    doctor.controller.startCall();
    await settle();
    expect(patient.controller.snapshot().phase).toBe('connecting');
    expect(r.net.linkUp()).toBe(true);
    for (const side of [doctor, patient]) {
      expect(side.controller.snapshot().phase).toBe('connected');
      const kinds = (
        side.controller.snapshot().remoteStream as unknown as { getTracks(): { kind: string }[] }
      )
        .getTracks()
        .map((t) => t.kind)
        .sort();
      expect(kinds).toEqual(['audio', 'video']);
      expect(sending(side.pc(), 'audio')).toBe(side.media.audioTrack);
      expect(sending(side.pc(), 'video')).toBe(side.media.videoTrack);
    }
    expect(r.records).toEqual([
      { role: 'paciente', event: 'paciente_entrou' },
      { role: 'medico', event: 'chamada_iniciada' },
    ]);
  });

  it('a reload is a new session: the doctor builds a fresh connection with it and the call resumes', async () => {
    const r = newRoom();
    const { doctor, patient } = await connectedCall(r);
    const before = doctor.pc();
    await patient.controller.dispose();
    await settle();
    expect(doctor.controller.snapshot().peer).toBeNull();

    const reloaded = r.enter('paciente');
    await reloaded.controller.join();
    await settle();
    expect(r.net.linkUp()).toBe(true);
    expect(doctor.pc()).not.toBe(before);
    expect(before.signalingState).toBe('closed');
    expect(doctor.controller.snapshot().phase).toBe('connected');
    expect(reloaded.controller.snapshot().phase).toBe('connected');
  });
});

describe('CallController: perfect negotiation and ICE restarts', () => {
  it('glare: both restart ICE at once; the doctor’s offer wins, the patient yields, and the same connections resume', async () => {
    const r = newRoom();
    const { doctor, patient } = await connectedCall(r);
    const [doctorPc, patientPc] = [doctor.pc(), patient.pc()];
    const [doctorUfrag, patientUfrag] = [doctorPc.ufragNow, patientPc.ufragNow];

    // Both sides' offers are made before either arrives.
    r.channel.hold();
    r.net.linkDown('failed');
    await settle();
    expect(doctor.controller.snapshot().phase).toBe('reconnecting');
    expect(patient.controller.snapshot().phase).toBe('reconnecting');
    expect(doctorPc.iceRestarts).toBeGreaterThan(0);
    expect(patientPc.iceRestarts).toBeGreaterThan(0);
    expect([doctorPc.signalingState, patientPc.signalingState]).toEqual([
      'have-local-offer',
      'have-local-offer',
    ]);
    const patientOffer = patientPc.localDescription?.sdp;

    r.channel.release();
    await settle();
    expect(doctorPc.negotiatedWith(patientPc)).toBe(true);
    // The impolite doctor ignored the patient's offer; the patient answered the doctor's.
    expect(doctorPc.remoteDescription?.type).toBe('answer');
    expect(doctorPc.remoteDescription?.sdp).not.toBe(patientOffer);
    expect(patientPc.remoteDescription?.type).toBe('offer');
    expect(doctorPc.ufragNow).not.toBe(doctorUfrag);
    expect(patientPc.ufragNow).not.toBe(patientUfrag);

    expect(r.net.linkUp()).toBe(true);
    expect(r.net.connections).toHaveLength(2);
    expect(doctor.controller.snapshot().phase).toBe('connected');
    expect(patient.controller.snapshot().phase).toBe('connected');
  });

  it(`a disconnected link gets ${DISCONNECTED_GRACE_MS} ms to come back by itself before an ICE restart`, async () => {
    const r = newRoom();
    const { doctor, patient } = await connectedCall(r);

    // Back in time: no restart.
    r.net.linkDown('disconnected');
    expect(patient.controller.snapshot().phase).toBe('reconnecting');
    await vi.advanceTimersByTimeAsync(DISCONNECTED_GRACE_MS - 1);
    expect(r.net.linkUp()).toBe(true);
    await vi.advanceTimersByTimeAsync(DISCONNECTED_GRACE_MS);
    expect(doctor.pc().iceRestarts + patient.pc().iceRestarts).toBe(0);
    expect(patient.controller.snapshot().phase).toBe('connected');

    // Still down after the grace: both restart ICE and the call resumes on the same connections.
    const ufrag = patient.pc().ufragNow;
    r.net.linkDown('disconnected');
    await vi.advanceTimersByTimeAsync(DISCONNECTED_GRACE_MS);
    expect(doctor.pc().iceRestarts).toBe(1);
    expect(patient.pc().iceRestarts).toBe(1);
    await settle();
    expect(patient.pc().ufragNow).not.toBe(ufrag);
    expect(r.net.linkUp()).toBe(true);
    expect(r.net.connections).toHaveLength(2);
    expect(patient.controller.snapshot().phase).toBe('connected');
  });
});

describe('CallController: audio only', () => {
  /** One sampling interval of the controller's getStats() loop. */
  async function sample(): Promise<void> {
    await vi.advanceTimersByTimeAsync(SAMPLE_INTERVAL_MS);
    await settle();
  }

  it('a weak link (recorded samples) drops video on both sides and tells both, records it, and a good link brings video back', async () => {
    const r = newRoom();
    const { doctor, patient } = await connectedCall(r);
    const weak = recording([good, ...repeat(lossy, DROP_AFTER), ...repeat(good, RESTORE_AFTER)]);
    doctor.pc().statsQueue.push(weak.first, ...weak.reports);
    const fine = recording(repeat(good, 20));
    patient.pc().statsQueue.push(fine.first, ...fine.reports);

    // The fresh call's report and the first good interval, then DROP_AFTER weak ones.
    await sample();
    await sample();
    expect(doctor.controller.snapshot().quality).toBe('boa');
    for (let i = 1; i < DROP_AFTER; i++) await sample();
    expect(doctor.controller.snapshot().quality).toBe('fraca');
    expect(doctor.controller.snapshot().audioOnly).toBeNull();
    expect(sending(doctor.pc(), 'video')).toBe(doctor.media.videoTrack);
    await sample();
    for (const side of [doctor, patient]) {
      expect(side.controller.snapshot().audioOnly).toBe('fraca');
      expect(sending(side.pc(), 'video')).toBeNull();
      expect(sending(side.pc(), 'audio')).toBe(side.media.audioTrack);
    }
    expect(patient.controller.snapshot().peer?.audioOnly).toBe('fraca');
    expect(r.records.filter((e) => e.event === 'so_audio')).toEqual([
      { role: 'medico', event: 'so_audio' },
      { role: 'paciente', event: 'so_audio' },
    ]);

    // Good samples: video returns after RESTORE_AFTER of them, on both sides.
    for (let i = 1; i < RESTORE_AFTER; i++) await sample();
    expect(doctor.controller.snapshot().audioOnly).toBe('fraca');
    await sample();
    for (const side of [doctor, patient]) {
      expect(side.controller.snapshot().audioOnly).toBeNull();
      expect(sending(side.pc(), 'video')).toBe(side.media.videoTrack);
    }
    // Recorded once per call and side, however often the link falls back.
    expect(r.records.filter((e) => e.event === 'so_audio')).toHaveLength(2);
  });

  it("'Só áudio': that side sends no video, the other is told and keeps its own video; recorded", async () => {
    const r = newRoom();
    const { doctor, patient } = await connectedCall(r);
    await patient.controller.setManualAudioOnly(true);
    await settle();
    expect(patient.controller.snapshot().audioOnly).toBe('manual');
    expect(sending(patient.pc(), 'video')).toBeNull();
    expect(doctor.controller.snapshot().peer?.audioOnly).toBe('manual');
    expect(doctor.controller.snapshot().audioOnly).toBeNull();
    expect(sending(doctor.pc(), 'video')).toBe(doctor.media.videoTrack);
    expect(r.records).toContainEqual({ role: 'paciente', event: 'so_audio' });

    await patient.controller.setManualAudioOnly(false);
    await settle();
    expect(patient.controller.snapshot().audioOnly).toBeNull();
    expect(sending(patient.pc(), 'video')).toBe(patient.media.videoTrack);
    expect(doctor.controller.snapshot().peer?.audioOnly).toBeNull();
  });

  it('camera off and mute reach the other side through presence, without a renegotiation', async () => {
    const r = newRoom();
    const { doctor, patient } = await connectedCall(r);
    const offers = r.channel.sent.filter((s) => s.kind === 'description').length;
    await patient.controller.setVideo(false);
    await patient.controller.setAudio(false);
    await settle();
    expect(sending(patient.pc(), 'video')).toBeNull();
    expect(doctor.controller.snapshot().peer).toMatchObject({ audio: false, video: false });
    expect(r.channel.sent.filter((s) => s.kind === 'description')).toHaveLength(offers);
  });
});

describe('CallController: ending', () => {
  it("'Encerrar' ends the call for both and records the end once", async () => {
    const r = newRoom();
    const { doctor, patient } = await connectedCall(r);
    patient.controller.endCall();
    await settle();
    expect(patient.controller.snapshot()).toMatchObject({ phase: 'ended', endedBy: 'self' });
    expect(doctor.controller.snapshot()).toMatchObject({ phase: 'ended', endedBy: 'peer' });
    expect(r.net.open()).toHaveLength(0);
    expect(r.records.filter((e) => e.event === 'chamada_encerrada')).toEqual([
      { role: 'paciente', event: 'chamada_encerrada' },
    ]);
  });
});
