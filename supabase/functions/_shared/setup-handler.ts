import {
  ensureAccount,
  ensureDoctorRow,
  findUserIdByEmail,
  linkAccount,
  syncPublicData,
  type ChangePolicy,
} from './doctor-accounts.ts';
import { FIXED_DOCTORS, type DoctorSlug, type FixedDoctor } from './fixed-doctors.ts';
import { fail, json, ok, preflight, type Result } from './http.ts';
import { sameSecret } from './secrets.ts';
import { serviceClient, type ServiceClient } from './service-client.ts';

/**
 * The setup functions of the two fixed doctors (docs/product-rules.md §2 "Setup and admin pages"). They carry no
 * login guard, so each is idempotent, answers {status: 'ok' | 'exists', message} and never
 * reveals a password: an account created here gets a random password nobody sees, and the
 * doctor sets their own through password recovery.
 *
 * Anyone holding the public anon key can call them, so without the setup token (header
 * `x-setup-token` = SETUP_TOKEN) they only create what is missing — an account, the medicos
 * row, the link between an unlinked row and an unlinked account; any other change answers 401
 * (403 when the server has no SETUP_TOKEN). With or without it they never undo an
 * administrator's decision: a hidden or inactive doctor stays so, a revoked doctor role is not
 * restored, a removed profile is not recreated.
 */
export type SetupAction = 'create' | 'create-and-link' | 'link' | 'sync';

type Outcome = { changed: boolean; ok: string; exists: string };

async function run(
  admin: ServiceClient,
  action: SetupAction,
  d: FixedDoctor,
  policy: ChangePolicy,
): Promise<Result<Outcome>> {
  const name = d.publicName;
  if (action === 'create') {
    const account = await ensureAccount(admin, d);
    if (!account.ok) return account;
    return ok({
      changed: account.value.changed,
      ok: `Conta de ${name} criada. Use "Esqueci minha senha" no acesso do médico para definir a senha.`,
      exists: `A conta de ${name} já existe.`,
    });
  }

  let userId: string | undefined;
  let changed = false;
  if (action === 'create-and-link') {
    const account = await ensureAccount(admin, d);
    if (!account.ok) return account;
    userId = account.value.userId;
    changed = account.value.changed;
  } else {
    const found = await findUserIdByEmail(admin, d.email);
    if (!found.ok) return found;
    userId = found.value;
    if (!userId && action === 'link') {
      return fail(`Conta de ${name} não encontrada. Crie a conta antes de vinculá-la.`, 404);
    }
  }

  const row = await ensureDoctorRow(admin, d);
  if (!row.ok) return row;
  changed ||= row.value.changed;
  if (userId) {
    const linked = await linkAccount(admin, row.value.row, userId, policy);
    if (!linked.ok) return linked;
    changed ||= linked.value.changed;
  }
  if (action !== 'link') {
    const synced = await syncPublicData(admin, row.value.row, d, policy);
    if (!synced.ok) return synced;
    changed ||= synced.value.changed;
  }
  const messages: Record<Exclude<SetupAction, 'create'>, [string, string]> = {
    'create-and-link': [
      `Conta de ${name} configurada e vinculada ao perfil de médico.`,
      `A conta de ${name} já está configurada e vinculada.`,
    ],
    link: [
      `Conta de ${name} vinculada ao perfil de médico.`,
      `A conta de ${name} já está vinculada ao perfil de médico.`,
    ],
    sync: [`Perfil de ${name} sincronizado.`, `O perfil de ${name} já está sincronizado.`],
  };
  const [okMessage, existsMessage] = messages[action];
  return ok({ changed, ok: okMessage, exists: existsMessage });
}

/**
 * Runs `action` for each of `slugs` in turn (one doctor, or both fixed doctors for
 * `create-and-link-ana-paulo`): 'ok' when anything changed for any of them, 'exists' when
 * nothing had to; the message names each doctor's outcome. The first failure ends the call —
 * what was done before it stays done, and a second call picks up where it stopped.
 */
export function setupHandler(
  slugs: DoctorSlug | readonly DoctorSlug[],
  action: SetupAction,
): (req: Request) => Promise<Response> {
  const doctors = (typeof slugs === 'string' ? [slugs] : slugs).map((slug) => FIXED_DOCTORS[slug]);
  return async (req) => {
    const early = preflight(req);
    if (early) return early;
    if (req.method !== 'POST' && req.method !== 'GET')
      return json({ error: 'Método não permitido.' }, 405);
    const admin = serviceClient();
    if (!admin.ok) return json({ error: admin.message }, 500);
    const policy = changePolicy(req);
    const outcomes: Outcome[] = [];
    for (const doctor of doctors) {
      const result = await run(admin.value, action, doctor, policy);
      if (!result.ok)
        return json({ error: result.message, message: result.message }, result.status ?? 500);
      outcomes.push(result.value);
    }
    const changed = outcomes.some((o) => o.changed);
    return json({
      status: changed ? 'ok' : 'exists',
      message: outcomes.map((o) => (o.changed ? o.ok : o.exists)).join(' '),
    });
  };
}

/** Changes beyond first setup need the setup token (see the comment at the top). */
function changePolicy(req: Request): ChangePolicy {
  const expected = Deno.env.get('SETUP_TOKEN');
  if (!expected) {
    return {
      allowed: false,
      status: 403,
      message: 'Alteração desativada: SETUP_TOKEN não configurado no servidor.',
    };
  }
  if (sameSecret(req.headers.get('x-setup-token') ?? '', expected)) return { allowed: true };
  return { allowed: false, status: 401, message: 'Token de configuração inválido.' };
}
