import type { ServiceClient } from './service-client.ts';
import type { FixedDoctor } from './fixed-doctors.ts';
import { fail, ok, type Result } from './http.ts';

/**
 * Idempotent steps that bring a fixed doctor to its final state: an auth account with role
 * medico, a medicos row (the seed's id when possible), the two linked, public data in sync.
 * Every step reports whether it changed anything, so callers can answer 'ok' or 'exists'.
 * Callers pass a service-role client; nothing here ever returns a password except
 * `ensureAccount` to the start-up script that prints it once.
 */

type Step<T> = Promise<Result<T & { changed: boolean }>>;

/**
 * Whether a step may change what already exists. The setup functions carry no login, so
 * without the setup token they may only create what a never-set-up doctor lacks; a step that
 * would change anything else answers `refusal` instead (setup-handler.ts).
 */
export type ChangePolicy = { allowed: true } | { allowed: false; message: string; status: number };

export const MAY_CHANGE: ChangePolicy = { allowed: true };

const refuse = <T>(policy: Extract<ChangePolicy, { allowed: false }>): Result<T> =>
  fail(policy.message, policy.status);

/** A one-time password: 144 random bits, URL-safe. */
export function oneTimePassword(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(18));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_');
}

export async function findUserIdByEmail(
  admin: ServiceClient,
  email: string,
): Promise<Result<string | undefined>> {
  const { data, error } = await admin
    .from('perfis_usuarios')
    .select('id')
    .eq('email', email)
    .limit(1)
    .maybeSingle<{ id: string }>();
  return error ? fail(error.message) : ok(data?.id);
}

/**
 * The account exists with app_metadata.role medico; `password` only when created now. An
 * existing account without that role is never promoted: an administrator revoked it, or it is
 * somebody else's sign-up with the doctor's address (409).
 */
export async function ensureAccount(
  admin: ServiceClient,
  doctor: FixedDoctor,
): Step<{ userId: string; password?: string }> {
  const existing = await findUserIdByEmail(admin, doctor.email);
  if (!existing.ok) return existing;
  if (existing.value) {
    const { data, error } = await admin.auth.admin.getUserById(existing.value);
    if (error) return fail(error.message);
    if (data.user.app_metadata.role === 'medico') {
      return ok({ userId: existing.value, changed: false });
    }
    return fail(
      `A conta de ${doctor.publicName} existe, mas não tem o papel de médico. Nada foi alterado: só um administrador pode restaurá-lo.`,
      409,
    );
  }
  const password = oneTimePassword();
  const { data, error } = await admin.auth.admin.createUser({
    email: doctor.email,
    password,
    email_confirm: true,
    app_metadata: { role: 'medico' },
    user_metadata: { full_name: doctor.publicName, require_password_change: true },
  });
  if (error) return fail(error.message);
  return ok({ userId: data.user.id, password, changed: true });
}

type MedicoRow = {
  id: string;
  user_id: string | null;
  public_name: string;
  name: string;
  specialty: string;
  crm: string;
  uf: string;
  is_public: boolean;
  is_active: boolean;
  _deleted: boolean;
  created_at: string;
};

const MEDICO_COLUMNS =
  'id, user_id, public_name, name, specialty, crm, uf, is_public, is_active, _deleted, created_at';

/** Live rows carrying the doctor's public name, the canonical one (seed id, linked, oldest) first. */
export async function doctorRows(
  admin: ServiceClient,
  doctor: FixedDoctor,
): Promise<Result<MedicoRow[]>> {
  const { data, error } = await admin
    .from('medicos')
    .select(MEDICO_COLUMNS)
    .eq('public_name', doctor.publicName)
    .eq('_deleted', false)
    .order('created_at', { ascending: true })
    .returns<MedicoRow[]>();
  if (error) return fail(error.message);
  const rank = (r: MedicoRow) => (r.id === doctor.medicoId ? 0 : r.user_id ? 1 : 2);
  return ok([...data].sort((a, b) => rank(a) - rank(b)));
}

/**
 * The doctor's medicos row; created (public and active) only when none ever existed. A row an
 * administrator removed (`_deleted`) is not replaced (409).
 */
export async function ensureDoctorRow(
  admin: ServiceClient,
  doctor: FixedDoctor,
): Step<{ row: MedicoRow }> {
  const rows = await doctorRows(admin, doctor);
  if (!rows.ok) return rows;
  const first = rows.value[0];
  if (first) return ok({ row: first, changed: false });
  const removed = await admin
    .from('medicos')
    .select('id')
    .eq('id', doctor.medicoId)
    .maybeSingle<{ id: string }>();
  if (removed.error) return fail(removed.error.message);
  if (removed.data) {
    return fail(
      `O perfil de ${doctor.publicName} foi removido por um administrador. Nada foi alterado.`,
      409,
    );
  }
  const { data, error } = await admin
    .from('medicos')
    .insert({
      id: doctor.medicoId,
      name: doctor.name,
      public_name: doctor.publicName,
      specialty: doctor.specialty,
      crm: doctor.crm,
      uf: doctor.uf,
      price_in_cents: doctor.priceInCents,
      is_public: true,
      is_active: true,
    })
    .select(MEDICO_COLUMNS)
    .single<MedicoRow>();
  return error ? fail(error.message) : ok({ row: data, changed: true });
}

/**
 * Links the account to the row; a stale link of the same account elsewhere is released first.
 * Only linking an unlinked row to an account linked nowhere counts as first setup.
 */
export async function linkAccount(
  admin: ServiceClient,
  row: MedicoRow,
  userId: string,
  policy: ChangePolicy = MAY_CHANGE,
): Step<object> {
  if (row.user_id === userId) return ok({ changed: false });
  if (!policy.allowed) {
    if (row.user_id) return refuse(policy);
    const elsewhere = await admin.from('medicos').select('id').eq('user_id', userId).limit(1);
    if (elsewhere.error) return fail(elsewhere.error.message);
    if (elsewhere.data.length) return refuse(policy);
  }
  const released = await admin.from('medicos').update({ user_id: null }).eq('user_id', userId);
  if (released.error) return fail(released.error.message);
  const linked = await admin.from('medicos').update({ user_id: userId }).eq('id', row.id);
  return linked.error ? fail(linked.error.message) : ok({ changed: true });
}

/**
 * Public data (name, specialty, CRM/UF) back to the fixed values. Whether the doctor is
 * public and active is an administrator's decision: never touched here.
 */
export async function syncPublicData(
  admin: ServiceClient,
  row: MedicoRow,
  doctor: FixedDoctor,
  policy: ChangePolicy = MAY_CHANGE,
): Step<object> {
  const wanted = {
    name: doctor.name,
    public_name: doctor.publicName,
    specialty: doctor.specialty,
    crm: doctor.crm,
    uf: doctor.uf,
  };
  const same = (Object.keys(wanted) as (keyof typeof wanted)[]).every((k) => row[k] === wanted[k]);
  if (same) return ok({ changed: false });
  if (!policy.allowed) return refuse(policy);
  const { error } = await admin.from('medicos').update(wanted).eq('id', row.id);
  return error ? fail(error.message) : ok({ changed: true });
}

export type CleanupReport = { doctor: string; kept: string; removed: string[] };

/**
 * Duplicates of a fixed doctor are retired: unlinked, hidden and soft-deleted (their
 * appointments keep pointing at them), and the account moves to the canonical row.
 */
export async function unifyDoctor(
  admin: ServiceClient,
  doctor: FixedDoctor,
): Promise<Result<CleanupReport | undefined>> {
  const rows = await doctorRows(admin, doctor);
  if (!rows.ok) return rows;
  const [keep, ...duplicates] = rows.value;
  if (!keep || duplicates.length === 0) return ok(undefined);
  const account = keep.user_id ?? duplicates.find((d) => d.user_id)?.user_id ?? null;
  const retired = await admin
    .from('medicos')
    .update({ user_id: null, is_public: false, is_active: false, _deleted: true })
    .in(
      'id',
      duplicates.map((d) => d.id),
    );
  if (retired.error) return fail(retired.error.message);
  if (account && keep.user_id !== account) {
    const linked = await linkAccount(admin, keep, account);
    if (!linked.ok) return linked;
  }
  return ok({ doctor: doctor.publicName, kept: keep.id, removed: duplicates.map((d) => d.id) });
}
