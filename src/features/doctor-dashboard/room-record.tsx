import { css } from 'styled-system/css';
import { isPatientWaiting, roomRecordLines } from '@/domain/appointments/room.ts';
import type { AppointmentView } from '../../../sync/index.ts';

/**
 * What the consultation room recorded on the appointment: the patient waiting (live, as the
 * replica syncs), the call's start, end and duration, the fallback to audio.
 */
export function RoomRecord({ appointment: a }: { appointment: AppointmentView }) {
  const lines = roomRecordLines(a);
  if (lines.length === 0) return null;
  const waiting = isPatientWaiting(a);
  return (
    <ul
      data-testid="room-record"
      className={css({ fontSize: 'sm', display: 'flex', flexDirection: 'column', gap: '0.5' })}
    >
      {lines.map((line, i) => (
        <li
          key={line}
          className={css(
            i === 0 && waiting
              ? { color: 'success.fg', fontWeight: 'bold' }
              : { color: 'fg.muted' },
          )}
        >
          {line}
        </li>
      ))}
    </ul>
  );
}
