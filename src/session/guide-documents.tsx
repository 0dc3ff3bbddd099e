import { useState } from 'react';
import { css } from 'styled-system/css';
import type { AppointmentView, GuiaDoc, SyncEngine } from '../../sync/index.ts';
import {
  appointmentCalendarEvent,
  CALENDAR_TEXTS,
  googleCalendarUrl,
  type CalendarEvent,
} from '@/domain/calendar/appointment-event.ts';
import { isClosedStatus } from '@/domain/appointments/status.ts';
import { GUIDE_TEXTS } from '@/domain/guides/texts.ts';
import { downloadFile } from '@/lib/download.ts';
import { showToast } from '@/lib/toast.ts';
import { Button, buttonClass } from '@/ui/button.tsx';
import { useSyncSession } from './sync-provider.tsx';

/**
 * An appointment's documents — the guide's PDF, the .ics file, the Google Calendar link — as the
 * patient's and the doctor's cards, the booking's success page and the guide page offer them.
 * They sit here, below the features, because four screens of three features show them; the
 * guide is read from this session's replica. pdf-lib and ical-generator load only when a button
 * is pressed (src/lib/documents/), and so does the guide's sheet (src/domain/guides/), so no
 * screen's first JavaScript carries them.
 */

export const DOCUMENT_TEXTS = {
  pdfFailed: 'Não foi possível gerar o PDF da guia. Tente novamente.',
  icsFailed: 'Não foi possível gerar o arquivo da agenda. Tente novamente.',
  googleHint: '(abre em nova aba)',
} as const;

function guideUrl(guideId: string): string {
  return `${window.location.origin}/guia/${guideId}`;
}

/** The calendar entry of an appointment, named for whoever reads it. */
function calendarEventOf(appointment: AppointmentView, withName: string): CalendarEvent | null {
  const guideId = appointment.guia?.id ?? appointment.guia_id;
  return appointmentCalendarEvent({
    appointmentId: appointment.id,
    horarioInicio: appointment.horario_inicio,
    horarioFim: appointment.horario_fim,
    withName,
    specialty: appointment.medico?.specialty ?? null,
    meetingLink: appointment.meeting_link,
    guideUrl: guideId ? guideUrl(guideId) : null,
    protocol: appointment.guia?.protocolo ?? appointment.protocolo,
    cancelled: Boolean(appointment.status && isClosedStatus(appointment.status)),
  });
}

/**
 * The guide in the replica once it is there; a card knows only its id. Subscribed by hand
 * rather than with rxjs's operators, which the cards' first paint would otherwise download
 * before the engine.
 */
function guideDoc(engine: SyncEngine | null, guideId: string): Promise<GuiaDoc> {
  if (!engine) return Promise.reject(new Error('no sync engine'));
  return new Promise((resolve, reject) => {
    let found = false;
    const sub = engine.guide$(guideId).subscribe({
      next: (guide) => {
        if (!guide || found) return;
        found = true;
        resolve(guide);
        // An answer given during subscribe() comes before `sub` is assigned.
        queueMicrotask(() => sub.unsubscribe());
      },
      error: reject,
    });
  });
}

export async function downloadGuidePdf(guide: GuiaDoc, appointment: AppointmentView | null) {
  const [{ guidePdfContent }, { guidePayment, toGuideView }, { renderGuidePdf }] =
    await Promise.all([
      import('@/domain/guides/pdf-content.ts'),
      import('@/domain/guides/guide-view.ts'),
      import('@/lib/documents/guide-pdf.ts'),
    ]);
  const content = guidePdfContent(
    toGuideView(guide, appointment),
    guidePayment(guide, appointment),
  );
  downloadFile(await renderGuidePdf(content), content.fileName, 'application/pdf');
}

async function downloadIcs(event: CalendarEvent, protocol: string | null) {
  const { renderAppointmentIcs } = await import('@/lib/documents/guide-ics.ts');
  const name = `consulta-${(protocol ?? event.uid).replace(/[^A-Za-z0-9-]/g, '')}.ics`;
  downloadFile(renderAppointmentIcs(event), name, 'text/calendar;charset=utf-8');
}

async function attempt(task: () => Promise<void>, failure: string) {
  try {
    await task();
  } catch (cause) {
    console.error(cause);
    showToast({ tone: 'error', title: failure });
  }
}

type Props = {
  appointment: AppointmentView;
  /** Who the calendar entry is with: the doctor for a patient, the patient for a doctor. */
  withName: string;
  /** The guide when the page already holds it. */
  guide?: GuiaDoc | null;
  size?: 'sm' | 'md';
  /** The PDF button's label: the success page calls it 'Baixar Guia'. */
  pdfLabel?: string;
};

/** 'Baixar PDF', the .ics file and the Google Calendar link of one booked appointment. */
export function GuideDocumentActions({
  appointment,
  withName,
  guide,
  size = 'sm',
  pdfLabel,
}: Props) {
  const { engine } = useSyncSession();
  const [busy, setBusy] = useState<'pdf' | 'ics' | null>(null);
  const guideId = appointment.guia?.id ?? appointment.guia_id;
  const event = calendarEventOf(appointment, withName);
  const protocol = appointment.guia?.protocolo ?? appointment.protocolo;

  async function run(kind: 'pdf' | 'ics', task: () => Promise<void>, failure: string) {
    setBusy(kind);
    await attempt(task, failure);
    setBusy(null);
  }

  return (
    <div
      data-testid="guide-documents"
      className={css({ display: 'flex', flexWrap: 'wrap', gap: '2', _print: { display: 'none' } })}
    >
      {guideId && (
        <Button
          size={size}
          variant="outline"
          loading={busy === 'pdf'}
          // The guide is read from the replica: until its engine is in (a dashboard painted
          // from its first read), the button waits.
          disabled={!guide && !engine}
          onClick={() =>
            void run(
              'pdf',
              async () => downloadGuidePdf(guide ?? (await guideDoc(engine, guideId)), appointment),
              DOCUMENT_TEXTS.pdfFailed,
            )
          }
        >
          {pdfLabel ?? GUIDE_TEXTS.download}
        </Button>
      )}
      {event && (
        <Button
          size={size}
          variant="outline"
          loading={busy === 'ics'}
          onClick={() =>
            void run('ics', () => downloadIcs(event, protocol), DOCUMENT_TEXTS.icsFailed)
          }
        >
          {CALENDAR_TEXTS.addToCalendar}
        </Button>
      )}
      {event && !event.cancelled && (
        <a
          href={googleCalendarUrl(event)}
          target="_blank"
          rel="noopener noreferrer"
          className={buttonClass({ variant: 'outline', size })}
        >
          {CALENDAR_TEXTS.googleCalendar}
          <span className={css({ srOnly: true })}> {DOCUMENT_TEXTS.googleHint}</span>
        </a>
      )}
    </div>
  );
}
