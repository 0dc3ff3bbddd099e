import type { ComponentType } from 'react';
import type { SyncEngine } from '../../sync/index.ts';

/**
 * What the app hands a feature that shows another feature's screen inside its own: features
 * never import each other, so a route composes them (docs/architecture.md).
 */

/** The doctor's weekly schedule editor (src/features/schedule-editor). */
export type ScheduleEditorComponent = ComponentType<{ engine: SyncEngine; medicoId: string }>;
