/** What other features may use of the doctor's dashboard: the weekly schedule editor. */
export { ScheduleEditor } from './schedule-editor.tsx';
