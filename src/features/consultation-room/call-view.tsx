import { useSyncExternalStore, type ReactNode } from 'react';
import { css, cx } from 'styled-system/css';
import { Alert } from '@/ui/alert.tsx';
import { Button } from '@/ui/button.tsx';
import { Card } from '@/ui/card.tsx';
import { Spinner } from '@/ui/spinner.tsx';
import type { CallController, CallSnapshot } from './call-controller.ts';
import type { LocalMedia } from './local-media.ts';
import { useMediaVersion } from './precall-check.tsx';
import { QUALITY_TEXTS, ROOM_TEXTS as T } from './texts.ts';
import { VideoTile } from './video-tile.tsx';

export function useCallSnapshot(controller: CallController): CallSnapshot {
  return useSyncExternalStore(controller.subscribe, controller.snapshot);
}

const isPhone = () => /Android|iPhone|iPad|iPod/i.test(navigator.userAgent);

function ControlButton({
  pressed,
  onClick,
  children,
  variant = 'outline',
  label,
}: {
  pressed?: boolean;
  onClick: () => void;
  children: ReactNode;
  variant?: 'outline' | 'destructive';
  label?: string;
}) {
  return (
    <Button
      size="sm"
      variant={variant}
      aria-pressed={pressed}
      aria-label={label}
      onClick={onClick}
      className={css({ flex: { base: '1 1 40%', sm: 'none' } })}
    >
      {children}
    </Button>
  );
}

function QualityIndicator({ snapshot }: { snapshot: CallSnapshot }) {
  const quality = snapshot.quality;
  const bars = quality === 'boa' ? 3 : quality === 'instavel' ? 2 : quality === 'fraca' ? 1 : 0;
  const text = quality ? QUALITY_TEXTS[quality] : '—';
  return (
    <span
      role="status"
      data-testid="call-quality"
      data-quality={quality ?? 'unknown'}
      className={css({ display: 'inline-flex', alignItems: 'center', gap: '1.5', fontSize: 'sm' })}
    >
      <span
        aria-hidden="true"
        className={css({ display: 'inline-flex', alignItems: 'flex-end', gap: '0.5', h: '4' })}
      >
        {[1, 2, 3].map((n) => (
          <span
            key={n}
            className={css({ w: '1', borderRadius: 'sm' })}
            style={{
              height: `${n * 33}%`,
              background:
                n <= bars
                  ? bars === 1
                    ? '#dc2626'
                    : bars === 2
                      ? '#d97706'
                      : '#16a34a'
                  : '#d1d5db',
            }}
          />
        ))}
      </span>
      {T.quality}: {text}
    </span>
  );
}

/** Banners above the videos: reconnecting, weak link, the other side away or muted. */
function CallNotices({ snapshot }: { snapshot: CallSnapshot }) {
  const notices: { key: string; text: string; tone: 'amber' | 'info' }[] = [];
  if (snapshot.phase === 'reconnecting')
    notices.push({ key: 'reconnecting', text: T.reconnecting, tone: 'amber' });
  if (snapshot.audioOnly === 'fraca')
    notices.push({ key: 'weak', text: T.weakLink, tone: 'amber' });
  else if (snapshot.audioOnly === 'manual')
    notices.push({ key: 'manual', text: T.audioOnlyManual, tone: 'info' });
  else if (snapshot.peer?.audioOnly === 'manual')
    notices.push({ key: 'peer-audio', text: T.peerAudioOnly, tone: 'info' });
  if (!snapshot.peer && snapshot.phase !== 'connecting')
    notices.push({ key: 'away', text: T.peerAway, tone: 'amber' });
  if (notices.length === 0) return null;
  return (
    <div role="status" className={css({ display: 'flex', flexDirection: 'column', gap: '2' })}>
      {notices.map((n) => (
        <Alert key={n.key} tone={n.tone}>
          <span data-testid={`notice-${n.key}`}>{n.text}</span>
        </Alert>
      ))}
    </div>
  );
}

function PeerBadges({ snapshot }: { snapshot: CallSnapshot }) {
  const peer = snapshot.peer;
  if (!peer) return null;
  return (
    <div
      className={css({
        position: 'absolute',
        left: '2',
        bottom: '2',
        display: 'flex',
        gap: '1',
        zIndex: 3,
      })}
    >
      {!peer.audio && (
        <span data-testid="peer-muted" className={badge}>
          {T.peerMuted}
        </span>
      )}
      {!peer.video && (
        <span data-testid="peer-camera-off" className={badge}>
          {T.peerCameraOff}
        </span>
      )}
    </div>
  );
}

const badge = css({
  bg: 'rgba(0,0,0,0.65)',
  color: 'white',
  fontSize: 'xs',
  px: '2',
  py: '1',
  borderRadius: 'md',
});

type InCallProps = {
  controller: CallController;
  snapshot: CallSnapshot;
  media: LocalMedia;
  speakerId: string | null;
};

/** The call: the other person large, this person small in a corner, the controls below. */
export function InCall({ controller, snapshot, media, speakerId }: InCallProps) {
  useMediaVersion(media);
  const peerVideoOff = snapshot.peer
    ? !snapshot.peer.video || snapshot.peer.audioOnly !== null
    : false;
  const remoteHidden = peerVideoOff || snapshot.audioOnly === 'fraca';
  return (
    <section
      aria-label={T.title}
      data-testid="in-call"
      data-phase={snapshot.phase}
      className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}
    >
      <div
        className={css({
          display: 'flex',
          justifyContent: 'space-between',
          alignItems: 'center',
          gap: '2',
          flexWrap: 'wrap',
        })}
      >
        <span
          className={css({
            fontSize: 'sm',
            color: 'fg.muted',
            display: 'inline-flex',
            gap: '2',
            alignItems: 'center',
          })}
        >
          {(snapshot.phase === 'connecting' || snapshot.phase === 'reconnecting') && (
            <Spinner size="sm" label={null} />
          )}
          {snapshot.phase === 'connecting'
            ? T.connecting
            : snapshot.phase === 'reconnecting'
              ? T.reconnecting
              : null}
        </span>
        <QualityIndicator snapshot={snapshot} />
      </div>
      <CallNotices snapshot={snapshot} />
      <div className={css({ position: 'relative' })}>
        <VideoTile
          stream={snapshot.remoteStream}
          label={T.remoteVideo}
          testId="remote-video"
          placeholder={snapshot.phase === 'connected' ? T.peerCameraOff : T.connecting}
          videoOff={remoteHidden}
          speakerId={speakerId}
          className={css({
            aspectRatio: { base: '3 / 4', sm: '16 / 9' },
            w: 'full',
            maxH: { base: '70vh', sm: '58vh' },
          })}
        />
        <PeerBadges snapshot={snapshot} />
        <VideoTile
          stream={media.videoTrack ? media.stream : null}
          muted
          mirrored
          label={T.localVideo}
          testId="local-video"
          placeholder={T.cameraOff}
          className={css({
            position: 'absolute!',
            right: '2',
            bottom: '2',
            w: { base: '28', sm: '48' },
            aspectRatio: { base: '3 / 4', sm: '16 / 9' },
            borderWidth: '2px',
            borderColor: 'white',
            zIndex: 3,
          })}
        />
      </div>
      <div
        role="toolbar"
        aria-label={T.title}
        className={css({ display: 'flex', gap: '2', flexWrap: 'wrap', justifyContent: 'center' })}
      >
        <ControlButton
          pressed={!snapshot.audio}
          onClick={() => void controller.setAudio(!snapshot.audio)}
        >
          {snapshot.audio ? T.mute : T.unmute}
        </ControlButton>
        <ControlButton
          pressed={!snapshot.video}
          onClick={() => void controller.setVideo(!snapshot.video)}
        >
          {snapshot.video ? T.cameraOff : T.cameraOn}
        </ControlButton>
        {isPhone() && snapshot.video && (
          <ControlButton onClick={() => void controller.switchCamera()}>
            {T.switchCamera}
          </ControlButton>
        )}
        <ControlButton
          pressed={snapshot.audioOnly === 'manual'}
          onClick={() => void controller.setManualAudioOnly(snapshot.audioOnly !== 'manual')}
        >
          {T.audioOnly}
        </ControlButton>
        <ControlButton variant="destructive" onClick={() => controller.endCall()}>
          {T.end}
        </ControlButton>
      </div>
    </section>
  );
}

type WaitingProps = {
  role: 'paciente' | 'medico';
  snapshot: CallSnapshot;
  media: LocalMedia;
  onStart: () => void;
};

/** Before the call: the patient waits for the doctor; the doctor sees whether the patient is there. */
export function WaitingRoom({ role, snapshot, media, onStart }: WaitingProps) {
  useMediaVersion(media);
  const patientHere = role === 'medico' && snapshot.peer !== null;
  return (
    <Card
      data-testid="waiting-room"
      className={css({
        display: 'grid',
        gap: '4',
        gridTemplateColumns: { base: '1fr', md: '2fr 3fr' },
        alignItems: 'center',
      })}
    >
      <VideoTile
        stream={media.videoTrack ? media.stream : null}
        muted
        mirrored
        label={T.localVideo}
        testId="local-video"
        placeholder={T.cameraOff}
        className={css({ aspectRatio: '16 / 9' })}
      />
      <div className={css({ display: 'flex', flexDirection: 'column', gap: '3' })} role="status">
        {role === 'paciente' ? (
          <>
            <p
              className={cx(
                css({
                  fontSize: 'xl',
                  fontWeight: 'bold',
                  display: 'flex',
                  gap: '2',
                  alignItems: 'center',
                }),
              )}
            >
              <Spinner size="sm" label={null} />
              {T.waitingDoctor}
            </p>
            <p className={css({ color: 'fg.muted', fontSize: 'sm' })}>{T.waitingDoctorHint}</p>
          </>
        ) : (
          <>
            <p
              data-testid="patient-presence"
              data-present={patientHere}
              className={css({
                fontSize: 'lg',
                fontWeight: 'bold',
                color: patientHere ? 'success.fg' : 'fg',
              })}
            >
              {patientHere ? T.patientWaiting : T.patientNotYet}
            </p>
            <p className={css({ color: 'fg.muted', fontSize: 'sm' })}>{T.doctorHint}</p>
            <Button
              onClick={onStart}
              className={css({ alignSelf: { base: 'stretch', sm: 'flex-start' } })}
            >
              {T.start}
            </Button>
          </>
        )}
      </div>
    </Card>
  );
}
