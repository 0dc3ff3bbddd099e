import { verifyApplicationToken } from '../_shared/application-token.ts';
import { fail, json, ok, preflight, readJsonObject, type Result } from '../_shared/http.ts';
import { serviceClient, type ServiceClient } from '../_shared/service-client.ts';

/**
 * Approves or rejects a doctor application from the signed link an administrator received.
 * Approval creates the doctor's record hidden (not public, not active) until set up.
 * The token secret is DOCTOR_APPLICATION_SECRET, else the service-role key.
 */
type Action = 'approve' | 'reject';

type Application = {
  id: string;
  full_name: string;
  crm: string;
  uf: string;
  specialty: string;
  status: string;
};

const answer = (success: boolean, message: string, status = success ? 200 : 400) =>
  json({ success, message }, status);

async function decide(admin: ServiceClient, id: string, action: Action): Promise<Result<string>> {
  const found = await admin
    .from('doctor_applications')
    .select('id, full_name, crm, uf, specialty, status')
    .eq('id', id)
    .maybeSingle<Application>();
  if (found.error) return fail(found.error.message, 500);
  if (!found.data) return fail('Solicitação não encontrada.', 404);

  // Claim the pending application first, so two clicks never decide it twice.
  const claimed = await admin
    .from('doctor_applications')
    .update({
      status: action === 'approve' ? 'aprovado' : 'rejeitado',
      decided_at: new Date().toISOString(),
    })
    .eq('id', id)
    .eq('status', 'pendente')
    .select('id');
  if (claimed.error) return fail(claimed.error.message, 500);
  if (claimed.data.length === 0) return fail('Esta solicitação já foi processada.', 409);
  if (action === 'reject') return ok('Solicitação rejeitada.');

  const a = found.data;
  const created = await admin
    .from('medicos')
    .insert({
      name: a.full_name,
      public_name: a.full_name,
      specialty: a.specialty,
      crm: a.crm,
      uf: a.uf,
      is_public: false,
      is_active: false,
    })
    .select('id')
    .single<{ id: string }>();
  if (created.error) return fail(created.error.message, 500);
  const linked = await admin
    .from('doctor_applications')
    .update({ medico_id: created.data.id })
    .eq('id', id);
  if (linked.error) return fail(linked.error.message, 500);
  return ok('Solicitação aprovada. O cadastro do médico foi criado.');
}

async function readParams(
  req: Request,
): Promise<{ action?: unknown; token?: unknown } | undefined> {
  if (req.method === 'GET') {
    const q = new URL(req.url).searchParams;
    return { action: q.get('action') ?? undefined, token: q.get('token') ?? undefined };
  }
  return readJsonObject(req);
}

export async function handleApplication(
  req: Request,
  nowSeconds = Math.floor(Date.now() / 1000),
): Promise<Response> {
  const early = preflight(req);
  if (early) return early;
  if (req.method !== 'POST' && req.method !== 'GET')
    return answer(false, 'Método não permitido.', 405);
  const params = await readParams(req);
  const { action, token } = params ?? {};
  if (typeof action !== 'string' || !action || typeof token !== 'string' || !token) {
    return answer(false, 'Parâmetros inválidos. Ação ou token ausente.');
  }
  if (action !== 'approve' && action !== 'reject') return answer(false, 'Ação inválida.');
  const secret =
    Deno.env.get('DOCTOR_APPLICATION_SECRET') ?? Deno.env.get('SUPABASE_SERVICE_ROLE_KEY');
  if (!secret) return answer(false, 'Configuração do servidor incompleta.', 500);
  const verified = await verifyApplicationToken(secret, token, nowSeconds);
  if (!verified.ok) return answer(false, verified.message, verified.status);
  const admin = serviceClient();
  if (!admin.ok) return answer(false, admin.message, 500);
  const decided = await decide(admin.value, verified.value.applicationId, action);
  return decided.ok ? answer(true, decided.value) : answer(false, decided.message, decided.status);
}
