import { unifyDoctor, type CleanupReport } from '../_shared/doctor-accounts.ts';
import { FIXED_DOCTORS } from '../_shared/fixed-doctors.ts';
import { json, preflight } from '../_shared/http.ts';
import { sameSecret } from '../_shared/secrets.ts';
import { serviceClient } from '../_shared/service-client.ts';

/**
 * Retires duplicate profiles of the fixed doctors. Destructive, so it needs the setup token
 * (`x-setup-token` header = SETUP_TOKEN); without a configured token it is disabled.
 */
export async function handleCleanup(req: Request): Promise<Response> {
  const early = preflight(req);
  if (early) return early;
  if (req.method !== 'POST') return json({ error: 'Método não permitido.' }, 405);
  const expected = Deno.env.get('SETUP_TOKEN');
  if (!expected) {
    return json({ error: 'Limpeza desativada: SETUP_TOKEN não configurado no servidor.' }, 403);
  }
  if (!sameSecret(req.headers.get('x-setup-token') ?? '', expected)) {
    return json({ error: 'Token de configuração inválido.' }, 401);
  }
  const admin = serviceClient();
  if (!admin.ok) return json({ error: admin.message }, 500);

  const details: CleanupReport[] = [];
  for (const doctor of Object.values(FIXED_DOCTORS)) {
    const report = await unifyDoctor(admin.value, doctor);
    if (!report.ok) return json({ error: report.message }, 500);
    if (report.value) details.push(report.value);
  }
  const removed = details.reduce((n, d) => n + d.removed.length, 0);
  return removed === 0
    ? json({ status: 'exists', message: 'Nenhum perfil duplicado encontrado.', details })
    : json({ status: 'ok', message: `${removed} perfil(is) duplicado(s) removido(s).`, details });
}
