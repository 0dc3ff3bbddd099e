import { css } from 'styled-system/css';
import type { MedicoDoc } from '../../../sync/index.ts';

/** The 'Financeiro' section of the doctor's dashboard. */
export function FinanceTab({ doctor }: { doctor: MedicoDoc }) {
  return (
    <div>
      <h1 className={css({ fontSize: '2xl', fontWeight: 'bold' })}>Financeiro</h1>
      <p className={css({ mt: '2', color: 'fg.muted' })}>{doctor.public_name}</p>
    </div>
  );
}
