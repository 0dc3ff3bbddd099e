import type { ApiResult } from '@/domain/errors/app-error.ts';
import { mapServerError, retriesExhaustedError } from '@/domain/errors/map-server-error.ts';
import { ReadRetriesExhausted, retryRead, type Wait } from '@/lib/retry-read.ts';
import type { AppSupabaseClient } from '@/lib/supabase.ts';

/** The patient's dashboard's calls that only work online (the LGPD part of 'Meus Dados'). */

/** A failed answer of the export; `status` 0 is one that never arrived, or ran out of time. */
class ExportFailed extends Error {
  constructor(
    readonly status: number,
    readonly failure: unknown,
  ) {
    super(`exportar_meus_dados failed with status ${status}`, { cause: failure });
  }
}

/** Not reached, timed out or a server fault: worth asking again (§9 "requests"). */
function isRetryable(error: unknown): boolean {
  return error instanceof ExportFailed && (error.status === 0 || error.status >= 500);
}

/**
 * Everything the server keeps about the signed-in person (`exportar_meus_dados`), asked again
 * while it is not reached or the server fails; `wait` spaces the attempts (tests pass their own).
 */
export async function exportMyData(
  client: AppSupabaseClient,
  wait?: Wait,
): Promise<ApiResult<unknown>> {
  const read = async () => {
    const answer = await client.rpc('exportar_meus_dados');
    const data: unknown = answer.data;
    if (answer.error || !data) throw new ExportFailed(answer.status, answer.error);
    return data;
  };
  try {
    return { ok: true, value: await retryRead(read, { retryable: isRetryable, wait }) };
  } catch (error) {
    const failure =
      error instanceof ReadRetriesExhausted
        ? retriesExhaustedError(mapServerError(error.last))
        : mapServerError(error);
    return { ok: false, error: failure };
  }
}

/** Deletes the signed-in person's account and personal data (`excluir_minha_conta`). */
export async function deleteMyAccount(client: AppSupabaseClient): Promise<ApiResult<null>> {
  const { error } = await client.rpc('excluir_minha_conta');
  return error ? { ok: false, error: mapServerError(error) } : { ok: true, value: null };
}
