/**
 * The booking rules the app, the sync engine and the database all apply, written once here.
 * sync/ imports this module too (with src/domain/schemas, the only part of src/ it may), and
 * tests/db/rules-pinned.test.ts fails if the SQL in supabase/migrations says otherwise.
 * Plain constants only: nothing here may import anything.
 */

/** Every schedule is São Paulo wall-clock time (docs/architecture.md §3). */
export const SCHEDULE_ZONE = 'America/Sao_Paulo';

/** Every consultation lasts 30 minutes, whatever the block's step. */
export const SLOT_DURATION_MINUTES = 30;

/** A slot is offered, and booked, only if it starts more than this after now. */
export const MIN_NOTICE_MINUTES = 20;

/** The steps a doctor may choose for an availability block. */
export const INTERVAL_OPTIONS = [5, 10, 15, 20, 30, 60] as const;

export const APPOINTMENT_STATUSES = [
  'confirmado',
  'atendido',
  'reagendado',
  'pendente',
  'cancelado',
  'expirado',
] as const;

export const PAYMENT_STATUSES = ['pendente', 'pago', 'cancelado'] as const;

/** Statuses that hold a slot: the partial unique index and the availability grid use these. */
export const BOOKED_STATUSES = ['confirmado', 'atendido', 'reagendado', 'pendente'] as const;

/** Statuses of an appointment that has yet to happen. */
export const UPCOMING_STATUSES = ['confirmado', 'reagendado', 'pendente'] as const;

/** Statuses after which nothing can be done to an appointment except read it. */
export const CLOSED_STATUSES = ['cancelado', 'expirado'] as const;
