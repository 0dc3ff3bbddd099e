import { useEffect, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import { css, cx } from 'styled-system/css';
import { Button } from '@/ui/button.tsx';
import { Card } from '@/ui/card.tsx';
import { checkConnection, type ConnectionCheckResult } from './connection-check.ts';
import type { LocalMedia } from './local-media.ts';
import { watchMicLevel } from './mic-level.ts';
import { canChooseSpeaker, routeToSpeaker, testToneUrl } from './test-tone.ts';
import { CONNECTION_TEXTS, MEDIA_OK, ROOM_TEXTS as T, mediaProblemText } from './texts.ts';
import { VideoTile } from './video-tile.tsx';

type Devices = {
  audioinput: MediaDeviceInfo[];
  videoinput: MediaDeviceInfo[];
  audiooutput: MediaDeviceInfo[];
};

async function listDevices(): Promise<Devices> {
  const all = await navigator.mediaDevices.enumerateDevices();
  const of = (kind: MediaDeviceKind) => all.filter((d) => d.kind === kind && d.deviceId);
  return {
    audioinput: of('audioinput'),
    videoinput: of('videoinput'),
    audiooutput: of('audiooutput'),
  };
}

/** Re-renders on every change of the media (tracks opened, closed, swapped). */
export function useMediaVersion(media: LocalMedia): number {
  const version = useRef(0);
  return useSyncExternalStore(
    (onChange) =>
      media.onChange(() => {
        version.current += 1;
        onChange();
      }),
    () => version.current,
  );
}

function Result({
  ok,
  children,
  testId,
}: {
  ok: boolean | null;
  children: ReactNode;
  testId: string;
}) {
  return (
    <p
      data-testid={testId}
      data-ok={ok === null ? undefined : String(ok)}
      className={css({
        fontSize: 'sm',
        color: ok === false ? 'destructive.fg' : ok ? 'success.fg' : 'fg.muted',
      })}
    >
      {ok === false ? '⚠ ' : ok ? '✓ ' : ''}
      {children}
    </p>
  );
}

const select = css({
  w: 'full',
  borderWidth: '1px',
  borderColor: 'border',
  borderRadius: 'md',
  px: '2',
  py: '2',
  bg: 'bg.surface',
  fontSize: 'sm',
});

function DeviceSelect({
  label,
  devices,
  value,
  onChange,
}: {
  label: string;
  devices: MediaDeviceInfo[];
  value: string | null;
  onChange: (id: string | null) => void;
}) {
  return (
    <label className={css({ display: 'flex', flexDirection: 'column', gap: '1', fontSize: 'sm' })}>
      <span className={css({ fontWeight: 'medium' })}>{label}</span>
      <select
        className={select}
        value={value ?? ''}
        onChange={(e) => onChange(e.target.value || null)}
      >
        <option value="">{T.defaultDevice}</option>
        {devices.map((d, i) => (
          <option key={d.deviceId} value={d.deviceId}>
            {d.label || `${label} ${i + 1}`}
          </option>
        ))}
      </select>
    </label>
  );
}

function MicMeter({ track }: { track: MediaStreamTrack | null }) {
  const [level, setLevel] = useState(0);
  useEffect(() => {
    if (!track) return;
    return watchMicLevel(track, setLevel);
  }, [track]);
  const percent = Math.round(level * 100);
  return (
    <div
      role="meter"
      aria-label={T.micLevel}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      data-testid="mic-meter"
      className={css({
        h: '2.5',
        w: 'full',
        bg: 'bg.subtle',
        borderRadius: 'full',
        overflow: 'hidden',
      })}
    >
      <div
        className={css({ h: 'full', bg: 'green.600', transition: 'width 60ms linear' })}
        style={{ width: `${percent}%` }}
      />
    </div>
  );
}

function SpeakerTest({ speakerId }: { speakerId: string | null }) {
  const [playing, setPlaying] = useState(false);
  async function play() {
    const url = testToneUrl();
    const audio = new Audio(url);
    await routeToSpeaker(audio, speakerId);
    setPlaying(true);
    audio.onended = () => {
      setPlaying(false);
      URL.revokeObjectURL(url);
    };
    await audio.play().catch(() => setPlaying(false));
  }
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '1' })}>
      <Button size="sm" variant="outline" onClick={() => void play()} disabled={playing}>
        {playing ? T.testSoundPlaying : T.testSound}
      </Button>
      <p className={css({ fontSize: 'xs', color: 'fg.muted' })}>{T.testSoundHint}</p>
    </div>
  );
}

function ConnectionResult({ iceServers }: { iceServers: RTCIceServer[] | null }) {
  const [result, setResult] = useState<ConnectionCheckResult | null>(null);
  useEffect(() => {
    if (!iceServers) return;
    let live = true;
    void checkConnection(iceServers).then((r) => live && setResult(r));
    return () => {
      live = false;
    };
  }, [iceServers]);
  if (!result)
    return (
      <Result ok={null} testId="connection-check">
        {T.checkingConnection}
      </Result>
    );
  const { ok, text } = CONNECTION_TEXTS[result];
  return (
    <Result ok={ok} testId="connection-check">
      <span data-result={result}>{text}</span>
    </Result>
  );
}

type PrecallCheckProps = {
  media: LocalMedia;
  iceServers: RTCIceServer[] | null;
  speakerId: string | null;
  onSpeaker: (id: string | null) => void;
  enterLabel: string;
  onEnter: () => void;
  /** What the appointment is, shown above the check. */
  children?: ReactNode;
};

/** 'Testar câmera e microfone': preview, meter, test sound, devices and the network. */
export function PrecallCheck({
  media,
  iceServers,
  speakerId,
  onSpeaker,
  enterLabel,
  onEnter,
  children,
}: PrecallCheckProps) {
  useMediaVersion(media);
  const [devices, setDevices] = useState<Devices | null>(null);
  const [opening, setOpening] = useState(true);

  useEffect(() => {
    let live = true;
    void media.open().then(async () => {
      if (!live) return;
      setOpening(false);
      // Labels are only told once the page may use the devices.
      setDevices(await listDevices());
    });
    const refresh = () => void listDevices().then((d) => live && setDevices(d));
    navigator.mediaDevices.addEventListener('devicechange', refresh);
    return () => {
      live = false;
      navigator.mediaDevices.removeEventListener('devicechange', refresh);
    };
  }, [media]);

  async function retry() {
    setOpening(true);
    await media.open();
    setDevices(await listDevices());
    setOpening(false);
  }

  const problem = media.videoProblem ?? media.audioProblem;
  return (
    <section
      aria-labelledby="precall-title"
      className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}
    >
      {children}
      <Card
        className={css({
          display: 'grid',
          gap: '4',
          gridTemplateColumns: { base: '1fr', md: '3fr 2fr' },
        })}
      >
        <div className={css({ display: 'flex', flexDirection: 'column', gap: '2' })}>
          <h2 id="precall-title" className={css({ fontWeight: 'bold', fontSize: 'lg' })}>
            {T.checkTitle}
          </h2>
          <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>{T.checkIntro}</p>
          <VideoTile
            stream={media.videoTrack ? media.stream : null}
            muted
            mirrored
            label={T.previewLabel}
            placeholder={opening ? T.loading : T.cameraOff}
            className={css({ aspectRatio: '16 / 9' })}
          />
        </div>
        <div className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}>
          <div className={css({ display: 'flex', flexDirection: 'column', gap: '1' })}>
            {devices && devices.videoinput.length > 0 && (
              <DeviceSelect
                label={T.camera}
                devices={devices.videoinput}
                value={media.choice.videoInput}
                onChange={(id) => void media.choose({ videoInput: id })}
              />
            )}
            {!opening && (
              <Result ok={!media.videoProblem} testId="camera-check">
                {media.videoProblem
                  ? mediaProblemText('camera', media.videoProblem)
                  : MEDIA_OK.camera}
              </Result>
            )}
          </div>
          <div className={css({ display: 'flex', flexDirection: 'column', gap: '1' })}>
            {devices && devices.audioinput.length > 0 && (
              <DeviceSelect
                label={T.microphone}
                devices={devices.audioinput}
                value={media.choice.audioInput}
                onChange={(id) => void media.choose({ audioInput: id })}
              />
            )}
            <MicMeter track={media.audioTrack} />
            {!opening && (
              <Result ok={!media.audioProblem} testId="microphone-check">
                {media.audioProblem
                  ? mediaProblemText('microphone', media.audioProblem)
                  : MEDIA_OK.microphone}
              </Result>
            )}
          </div>
          <div className={css({ display: 'flex', flexDirection: 'column', gap: '1' })}>
            {devices && canChooseSpeaker() && devices.audiooutput.length > 0 && (
              <DeviceSelect
                label={T.speaker}
                devices={devices.audiooutput}
                value={speakerId}
                onChange={onSpeaker}
              />
            )}
            <SpeakerTest speakerId={speakerId} />
          </div>
          <div className={css({ display: 'flex', flexDirection: 'column', gap: '1' })}>
            <span className={css({ fontWeight: 'medium', fontSize: 'sm' })}>{T.connection}</span>
            <ConnectionResult iceServers={iceServers} />
          </div>
        </div>
      </Card>
      <div
        className={cx(
          css({ display: 'flex', gap: '2', justifyContent: 'flex-end', flexWrap: 'wrap' }),
        )}
      >
        {problem && (
          <Button variant="outline" onClick={() => void retry()} loading={opening}>
            {T.retry}
          </Button>
        )}
        <Button
          onClick={onEnter}
          disabled={opening}
          className={css({ flex: { base: '1', sm: 'none' } })}
        >
          {enterLabel}
        </Button>
      </div>
    </section>
  );
}
