import { useEffect, useRef, useState } from 'react';
import { css, cx } from 'styled-system/css';
import { routeToSpeaker } from './test-tone.ts';
import { ROOM_TEXTS as T } from './texts.ts';

type VideoTileProps = {
  stream: MediaStream | null;
  /** The local preview is muted (no echo) and mirrored, as people expect to see themselves. */
  muted?: boolean;
  mirrored?: boolean;
  label: string;
  placeholder: string;
  speakerId?: string | null;
  className?: string;
  testId?: string;
  /** The other side said its camera is off (its track stays, without frames). */
  videoOff?: boolean;
};

/**
 * One video. `playsInline` keeps iOS from taking the video full screen; `autoPlay` with
 * `muted` is what every browser plays without a tap. The other side's video carries sound, so
 * its playback may be refused until a tap: then a button asks for it.
 */
export function VideoTile({
  stream,
  muted = false,
  mirrored = false,
  label,
  placeholder,
  speakerId = null,
  className,
  testId,
  videoOff = false,
}: VideoTileProps) {
  const ref = useRef<HTMLVideoElement>(null);
  const [blocked, setBlocked] = useState(false);

  useEffect(() => {
    const video = ref.current;
    if (!video) return;
    if (video.srcObject !== stream) video.srcObject = stream;
    if (!stream) return;
    void routeToSpeaker(video, speakerId);
    video.play().then(
      () => setBlocked(false),
      (e: unknown) => {
        if (e instanceof DOMException && e.name === 'NotAllowedError') setBlocked(true);
      },
    );
  }, [stream, speakerId]);

  const hasVideo =
    !videoOff && Boolean(stream?.getVideoTracks().some((t) => t.readyState === 'live'));
  return (
    <div
      className={cx(
        css({
          position: 'relative',
          bg: 'gray.900',
          borderRadius: 'lg',
          overflow: 'hidden',
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
        }),
        className,
      )}
    >
      <video
        ref={ref}
        data-testid={testId}
        aria-label={label}
        autoPlay
        playsInline
        muted={muted}
        className={css({
          w: 'full',
          h: 'full',
          objectFit: 'cover',
          transform: mirrored ? 'scaleX(-1)' : undefined,
          visibility: hasVideo ? 'visible' : 'hidden',
          position: 'absolute',
          inset: '0',
        })}
      />
      {!hasVideo && (
        <p
          className={css({
            color: 'white',
            fontSize: 'sm',
            p: '2',
            textAlign: 'center',
            zIndex: 1,
          })}
        >
          {placeholder}
        </p>
      )}
      {blocked && (
        <button
          type="button"
          onClick={() => {
            void ref.current?.play().then(() => setBlocked(false));
          }}
          className={css({
            position: 'absolute',
            zIndex: 2,
            bg: 'white',
            color: 'fg',
            px: '4',
            py: '2',
            borderRadius: 'md',
            fontWeight: 'bold',
          })}
        >
          {T.enableSound}
        </button>
      )}
    </div>
  );
}
