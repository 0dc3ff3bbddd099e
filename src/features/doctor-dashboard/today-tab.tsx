import { css } from 'styled-system/css';
import type { MedicoDoc } from '../../../sync/index.ts';

/** The 'Hoje' section of the doctor's dashboard. */
export function TodayTab({ doctor }: { doctor: MedicoDoc }) {
  return (
    <div>
      <h1 className={css({ fontSize: '2xl', fontWeight: 'bold' })}>Hoje</h1>
      <p className={css({ mt: '2', color: 'fg.muted' })}>{doctor.public_name}</p>
    </div>
  );
}
