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

/** The account exists with app_metadata.role medico; `password` only when created now. */
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
    const updated = await admin.auth.admin.updateUserById(existing.value, {
      app_metadata: { ...data.user.app_metadata, role: 'medico' },
    });
    return updated.error
      ? fail(updated.error.message)
      : ok({ userId: existing.value, changed: true });
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

export async function ensureDoctorRow(
  admin: ServiceClient,
  doctor: FixedDoctor,
): Step<{ row: MedicoRow }> {
  const rows = await doctorRows(admin, doctor);
  if (!rows.ok) return rows;
  const first = rows.value[0];
  if (first) return ok({ row: first, changed: false });
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

/** Links the account to the row; a stale link of the same account elsewhere is released first. */
export async function linkAccount(
  admin: ServiceClient,
  row: MedicoRow,
  userId: string,
): Step<object> {
  if (row.user_id === userId) return ok({ changed: false });
  const released = await admin.from('medicos').update({ user_id: null }).eq('user_id', userId);
  if (released.error) return fail(released.error.message);
  const linked = await admin.from('medicos').update({ user_id: userId }).eq('id', row.id);
  return linked.error ? fail(linked.error.message) : ok({ changed: true });
}

/** Public data back to the fixed values; the doctor stays public and active. */
export async function syncPublicData(
  admin: ServiceClient,
  row: MedicoRow,
  doctor: FixedDoctor,
): Step<object> {
  const wanted = {
    name: doctor.name,
    public_name: doctor.publicName,
    specialty: doctor.specialty,
    crm: doctor.crm,
    uf: doctor.uf,
    is_public: true,
    is_active: true,
  };
  const same = (Object.keys(wanted) as (keyof typeof wanted)[]).every((k) => row[k] === wanted[k]);
  if (same) return ok({ changed: false });
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
