import { lazy } from 'react';

/**
 * The doctor's weekly schedule editor, which the app composes into the doctor's 'Agenda'
 * section and the booking page's owner view (?edit=1). Lazy: its code loads when one opens.
 */
export const ScheduleEditor = lazy(() =>
  import('./schedule-editor.tsx').then((m) => ({ default: m.ScheduleEditor })),
);
