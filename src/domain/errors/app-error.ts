/**
 * An expected failure, as a value. `code` is a stable kebab-case reason programs branch on;
 * `message` is Portuguese for the person; `cause` is English for logs and never shown.
 */
export type AppError = {
  code: string;
  message: string;
  cause: string;
};

export function appError(code: string, message: string, cause: string): AppError {
  return { code, message, cause };
}

/** Server reasons are snake_case ('slot_in_past'); app codes are kebab-case ('slot-in-past'). */
export function reasonToCode(reason: string): string {
  return reason.trim().toLowerCase().replace(/_/g, '-');
}

/** The way back, for what keeps the server's spelling (sync/outbox/types.ts `Rejection`). */
export function codeToReason(code: string): string {
  return code.replace(/-/g, '_');
}

/**
 * What an online-only call of a feature's `api.ts` answers: its value, or the failure mapped by
 * `map-server-error.ts` (never a throw).
 */
export type ApiResult<T> = { ok: true; value: T } | { ok: false; error: AppError };
