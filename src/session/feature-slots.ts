import type { ComponentType } from 'react';
import type { SyncEngine } from '../../sync/index.ts';

/**
 * What the app hands a feature that shows another feature's screen inside its own: features
 * never import each other, so a route composes them (docs/architecture.md).
 */

/** The doctor's weekly schedule editor (src/features/schedule-editor). */
export type ScheduleEditorComponent = ComponentType<{ engine: SyncEngine; medicoId: string }>;

/** What the sign-in dialog reports: a login, or a sign-up that still needs its e-mail confirmed. */
export type AuthSuccess =
  { mode: 'login'; email: string } | { mode: 'signup'; email: string; resent: boolean };

/** The patient's login/sign-up dialog (src/features/auth), opened by the booking flow. */
export type LoginDialogComponent = ComponentType<{
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Called after a login, or after a sign-up (whose account still needs e-mail confirmation). */
  onSuccess: (result: AuthSuccess) => void;
}>;
