import { Suspense } from 'react';
import { Link } from 'react-router-dom';
import { css } from 'styled-system/css';
import type { MedicoDoc } from '../../../sync/index.ts';
import { useSyncEngine } from '@/session/sync-provider.tsx';
import type { ScheduleEditorComponent } from '@/session/feature-slots.ts';
import { PageSpinner } from '@/ui/spinner.tsx';

export const SCHEDULE_TAB_TEXTS = {
  title: 'Agenda',
  subtitle:
    'Defina os blocos de atendimento de cada dia da semana. Os pacientes veem os novos horários assim que você salva.',
  preview: 'Ver minha agenda como os pacientes veem',
} as const;

/** The 'Agenda' section: the weekly schedule editor (docs/product-rules.md §5). */
export function ScheduleTab({
  doctor,
  Editor,
}: {
  doctor: MedicoDoc;
  Editor: ScheduleEditorComponent;
}) {
  const engine = useSyncEngine();
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '6', minW: '0' })}>
      <header>
        <h1 className={css({ fontSize: '2xl', fontWeight: 'bold' })}>{SCHEDULE_TAB_TEXTS.title}</h1>
        <p className={css({ mt: '1', color: 'fg.muted' })}>{SCHEDULE_TAB_TEXTS.subtitle}</p>
        <Link
          to="/agendamentos"
          className={css({
            display: 'inline-block',
            mt: '2',
            fontSize: 'sm',
            color: 'primary',
            textDecoration: 'underline',
          })}
        >
          {SCHEDULE_TAB_TEXTS.preview}
        </Link>
      </header>
      {engine ? (
        <Suspense fallback={<PageSpinner />}>
          <Editor engine={engine} medicoId={doctor.id} />
        </Suspense>
      ) : (
        <PageSpinner />
      )}
    </div>
  );
}
