import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Link, useLocation, useParams } from 'react-router-dom';
import { css } from 'styled-system/css';
import { doctorActions } from '@/domain/appointments/actions.ts';
import { appointmentStateOf, isClosedStatus } from '@/domain/appointments/status.ts';
import { roomOpening, roomWindow, ROOM_NOT_OPEN_TEXT } from '@/domain/rules/consultation-room.ts';
import { useAuth, dashboardPath } from '@/session/auth-context.ts';
import { useSupabase } from '@/session/supabase-context.ts';
import { useObservable, useSyncSession } from '@/session/sync-provider.tsx';
import type { AppointmentView, SyncEngine } from '../../../sync/index.ts';
import { useNow } from '@/lib/use-now.ts';
import { useOnline } from '@/lib/use-online.ts';
import { Alert } from '@/ui/alert.tsx';
import { AppointmentWhen } from '@/ui/appointment-parts.tsx';
import { Button, buttonClass } from '@/ui/button.tsx';
import { Card } from '@/ui/card.tsx';
import { Container } from '@/ui/container.tsx';
import { PageSpinner } from '@/ui/spinner.tsx';
import { CallController } from './call-controller.ts';
import { InCall, useCallSnapshot, WaitingRoom } from './call-view.tsx';
import { fetchIceServers, transportPolicyFromUrl } from './ice-servers.ts';
import { LocalMedia } from './local-media.ts';
import { PrecallCheck } from './precall-check.tsx';
import { Signalling, type RoomRole } from './signalling.ts';
import { ROOM_TEXTS as T } from './texts.ts';

/** This tab is in the room (survives a reload, so the person goes straight back in). */
const joinedKey = (id: string) => `saudeja:sala:${id}`;

function otherName(a: AppointmentView, role: RoomRole): string {
  return role === 'paciente'
    ? T.withDoctor(a.medico?.public_name || a.medico?.name || 'Médico')
    : T.withPatient(a.paciente?.full_name || 'Paciente');
}

function Summary({ appointment, role }: { appointment: AppointmentView; role: RoomRole }) {
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '1' })}>
      <h1 className={css({ fontSize: '2xl', fontWeight: 'bold' })}>
        {otherName(appointment, role)}
      </h1>
      <AppointmentWhen instant={appointment.horario_inicio} />
    </div>
  );
}

/** The call was running for the doctor (a reload or a reopened tab): rejoin it. */
function callRunning(a: AppointmentView): boolean {
  if (!a.chamada_iniciada_em) return false;
  return !a.chamada_encerrada_em || a.chamada_encerrada_em < a.chamada_iniciada_em;
}

type RoomProps = {
  appointment: AppointmentView;
  role: RoomRole;
  userId: string;
  engine: SyncEngine;
  media: LocalMedia;
  iceServers: RTCIceServer[];
  speakerId: string | null;
  onLeave: () => void;
};

function Room({
  appointment,
  role,
  userId,
  engine,
  media,
  iceServers,
  speakerId,
  onLeave,
}: RoomProps) {
  const client = useSupabase();
  const { search } = useLocation();
  const id = appointment.id;
  const [controller] = useState(
    () =>
      new CallController({
        role,
        sessionId: crypto.randomUUID(),
        media,
        iceServers: () => Promise.resolve(iceServers),
        iceTransportPolicy: transportPolicyFromUrl(search),
        resume: role === 'medico' && sessionStorage.getItem(joinedKey(id)) === 'call',
        signalling: (handlers) => new Signalling(client, id, userId, handlers),
        record: (event) => {
          void engine.recordRoomEvent(id, event).then((result) => {
            if (!result.ok) console.warn(`Room event ${event} not recorded: ${result.error}`);
          });
        },
      }),
  );
  useEffect(() => {
    void controller.join();
    return () => void controller.dispose();
  }, [controller]);
  const snapshot = useCallSnapshot(controller);

  useEffect(() => {
    if (snapshot.phase === 'ended') sessionStorage.removeItem(joinedKey(id));
    else if (snapshot.phase !== 'waiting') sessionStorage.setItem(joinedKey(id), 'call');
  }, [snapshot.phase, id]);

  if (snapshot.channel === 'refused') {
    return (
      <Alert tone="destructive" role="alert" title={T.refused}>
        <span data-testid="room-refused">{T.refusedDescription}</span>
      </Alert>
    );
  }
  if (snapshot.phase === 'waiting') {
    return (
      <WaitingRoom
        role={role}
        snapshot={snapshot}
        media={media}
        onStart={() => controller.startCall()}
      />
    );
  }
  if (snapshot.phase === 'ended') {
    return (
      <CallEnded
        appointment={appointment}
        role={role}
        engine={engine}
        byPeer={snapshot.endedBy === 'peer'}
        onLeave={onLeave}
      />
    );
  }
  return <InCall controller={controller} snapshot={snapshot} media={media} speakerId={speakerId} />;
}

function CallEnded({
  appointment: a,
  role,
  engine,
  byPeer,
  onLeave,
}: {
  appointment: AppointmentView;
  role: RoomRole;
  engine: SyncEngine;
  byPeer: boolean;
  onLeave: () => void;
}) {
  const state = appointmentStateOf(a);
  const canCheckIn = role === 'medico' && state !== null && doctorActions(state).canCheckIn;
  return (
    <Card
      data-testid="call-ended"
      className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}
    >
      <p role="status" className={css({ fontSize: 'xl', fontWeight: 'bold' })}>
        {T.ended}
      </p>
      {byPeer && <p className={css({ color: 'fg.muted' })}>{T.endedByPeer}</p>}
      {a.status === 'atendido' && role === 'medico' && <p>{T.checkedIn}</p>}
      <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })}>
        {canCheckIn && <Button onClick={() => void engine.checkIn(a.id)}>{T.checkIn}</Button>}
        <Button variant="outline" onClick={onLeave}>
          {T.rejoin}
        </Button>
        <Link to={dashboardPath(role)} className={buttonClass({ variant: 'ghost' })}>
          {T.back}
        </Link>
      </div>
    </Card>
  );
}

/** `/consulta/:agendamentoId`: the pre-call check, the waiting room and the call. */
export function ConsultationRoomPage() {
  const { agendamentoId = '' } = useParams();
  const { engine, user, failed } = useSyncSession();
  const { session } = useAuth();
  const client = useSupabase();
  const online = useOnline();
  const now = useNow();
  const appointment$ = useMemo(
    () => engine?.appointment$(agendamentoId) ?? null,
    [engine, agendamentoId],
  );
  const appointment = useObservable(appointment$, undefined);
  const [media] = useState(() => new LocalMedia());
  const [stage, setStage] = useState<'check' | 'room'>(() =>
    sessionStorage.getItem(joinedKey(agendamentoId)) ? 'room' : 'check',
  );
  const [iceServers, setIceServers] = useState<RTCIceServer[] | null>(null);
  const [speakerId, setSpeakerId] = useState<string | null>(null);
  const [mediaReady, setMediaReady] = useState(stage === 'check');
  // A room entered again: a fresh key each time, so a new controller (and session) starts.
  const [entry, setEntry] = useState(0);

  useEffect(() => () => media.close(), [media]);
  useEffect(() => {
    if (!online || !appointment) return;
    let live = true;
    void fetchIceServers(client, agendamentoId).then((servers) => live && setIceServers(servers));
    return () => {
      live = false;
    };
  }, [client, agendamentoId, online, appointment]);
  // Straight into the room after a reload: the camera and microphone open without the check.
  useEffect(() => {
    if (stage !== 'room' || mediaReady) return;
    void media.open().then(() => setMediaReady(true));
  }, [stage, mediaReady, media]);

  const role: RoomRole | null = user?.role ?? null;
  if (failed)
    return (
      <Page>
        <Alert tone="destructive" title={T.notFound} />
      </Page>
    );
  if (!engine || !role || appointment === undefined) return <PageSpinner label={T.loading} />;
  const mine =
    appointment && (role === 'medico' || appointment.patient_id === (session?.user.id ?? user?.id));
  if (!appointment || !mine) {
    return (
      <Page>
        <Alert tone="destructive" title={T.notFound}>
          {T.notFoundDescription}
        </Alert>
        <BackLink role={role} />
      </Page>
    );
  }
  const summary = <Summary appointment={appointment} role={role} />;
  if (appointment.status && isClosedStatus(appointment.status)) {
    return (
      <Page>
        {summary}
        <Alert tone="amber">{T.closed}</Alert>
        <BackLink role={role} />
      </Page>
    );
  }
  if (!online) {
    return (
      <Page>
        {summary}
        <Alert tone="amber" role="status" title={T.offline}>
          {T.offlineDescription}
        </Alert>
        <BackLink role={role} />
      </Page>
    );
  }
  const window = roomWindow(appointment);
  const opening = window ? roomOpening(window, now) : 'open';
  if (opening !== 'open' && stage === 'check') {
    return (
      <Page>
        {summary}
        <Alert tone="info" role="status">
          {opening === 'not_open' ? ROOM_NOT_OPEN_TEXT : T.roomClosed}
        </Alert>
        <BackLink role={role} />
      </Page>
    );
  }
  if (stage === 'check') {
    return (
      <Page>
        <PrecallCheck
          media={media}
          iceServers={iceServers}
          speakerId={speakerId}
          onSpeaker={setSpeakerId}
          enterLabel={role === 'paciente' ? T.enterWaiting : T.enterRoom}
          onEnter={() => {
            // A doctor whose call is still running (the tab was closed) goes back into it.
            const running = role === 'medico' && callRunning(appointment);
            sessionStorage.setItem(joinedKey(agendamentoId), running ? 'call' : 'waiting');
            setStage('room');
          }}
        >
          {summary}
        </PrecallCheck>
      </Page>
    );
  }
  return (
    <Page>
      {summary}
      {iceServers && mediaReady ? (
        <Room
          key={entry}
          appointment={appointment}
          role={role}
          userId={session?.user.id ?? user?.id ?? ''}
          engine={engine}
          media={media}
          iceServers={iceServers}
          speakerId={speakerId}
          onLeave={() => {
            sessionStorage.setItem(joinedKey(agendamentoId), 'waiting');
            setEntry((n) => n + 1);
          }}
        />
      ) : (
        <PageSpinner label={T.loading} />
      )}
    </Page>
  );
}

function Page({ children }: { children: ReactNode }) {
  return (
    <Container
      className={css({ py: '6', display: 'flex', flexDirection: 'column', gap: '4', maxW: '5xl' })}
    >
      {children}
    </Container>
  );
}

function BackLink({ role }: { role: RoomRole }) {
  return (
    <Link
      to={dashboardPath(role)}
      className={buttonClass({ variant: 'outline' }, css({ alignSelf: 'flex-start' }))}
    >
      {T.back}
    </Link>
  );
}
