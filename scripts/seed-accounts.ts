import { createClient } from '@supabase/supabase-js';
import {
  ensureAccount,
  ensureDoctorRow,
  findUserIdByEmail,
  linkAccount,
} from '../supabase/functions/_shared/doctor-accounts.ts';
import { FIXED_DOCTORS } from '../supabase/functions/_shared/fixed-doctors.ts';

/**
 * The accounts the seed cannot hold (no password may live in the repository): the two fixed
 * doctors, each with a one-time password returned only when the account is created now, and
 * optionally two demo patients with the fixed passwords documented in the README. Idempotent:
 * run at every start.
 */
export type SeedAccountsOptions = { url: string; serviceRoleKey: string; demoPatients: boolean };

export type SeededAccount = {
  label: string;
  email: string;
  password: string | undefined;
  /** Why the account was left as an administrator left it. */
  note?: string;
};

export type SeededAccounts = { doctors: SeededAccount[]; patients: SeededAccount[] };

/** Demo patients (embedded default only). Valid CPFs, adults, complete profiles. */
export const DEMO_PATIENTS = [
  {
    email: 'paciente1@saudeja.example',
    password: 'paciente123',
    full_name: 'Maria Oliveira',
    cpf: '52998224725',
    data_nasc: '1988-03-14',
    whatsapp: '(11) 98765-4321',
  },
  {
    email: 'paciente2@saudeja.example',
    password: 'paciente123',
    full_name: 'João Santos',
    cpf: '12345678909',
    data_nasc: '1975-11-02',
    whatsapp: '(21) 97654-3210',
  },
] as const;

function adminClient(url: string, serviceRoleKey: string) {
  return createClient(url, serviceRoleKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  });
}

type Admin = ReturnType<typeof adminClient>;

/** Start-up cannot go on without these accounts, so a failure stops it with the reason. */
function must<T>(result: { ok: true; value: T } | { ok: false; message: string }, what: string): T {
  if (!result.ok) throw new Error(`seed accounts: ${what}: ${result.message}`);
  return result.value;
}

/** An administrator's decision (a revoked role, a removed profile) the start-up keeps. */
const isKeptDecision = (r: { ok: boolean; status?: number }) => !r.ok && r.status === 409;

async function seedDoctors(admin: Admin): Promise<SeededAccount[]> {
  const seeded: SeededAccount[] = [];
  for (const doctor of Object.values(FIXED_DOCTORS)) {
    const account = await ensureAccount(admin, doctor);
    const row = account.ok ? await ensureDoctorRow(admin, doctor) : account;
    if (isKeptDecision(row)) {
      const note = row.ok ? '' : row.message;
      seeded.push({ label: doctor.publicName, email: doctor.email, password: undefined, note });
      continue;
    }
    const { userId, password } = must(account, doctor.email);
    must(
      await linkAccount(admin, must(row, doctor.publicName).row, userId),
      `link ${doctor.publicName}`,
    );
    seeded.push({ label: doctor.publicName, email: doctor.email, password });
  }
  return seeded;
}

async function seedPatients(admin: Admin): Promise<SeededAccount[]> {
  const seeded: SeededAccount[] = [];
  for (const [i, p] of DEMO_PATIENTS.entries()) {
    const existing = must(await findUserIdByEmail(admin, p.email), p.email);
    if (!existing) {
      const { error } = await admin.auth.admin.createUser({
        email: p.email,
        password: p.password,
        email_confirm: true,
        user_metadata: {
          full_name: p.full_name,
          cpf: p.cpf,
          data_nasc: p.data_nasc,
          whatsapp: p.whatsapp,
        },
      });
      if (error) throw new Error(`seed accounts: ${p.email}: ${error.message}`);
    }
    seeded.push({ label: `Paciente demo ${i + 1}`, email: p.email, password: p.password });
  }
  return seeded;
}

export async function seedAccounts(opts: SeedAccountsOptions): Promise<SeededAccounts> {
  const admin = adminClient(opts.url, opts.serviceRoleKey);
  const doctors = await seedDoctors(admin);
  const patients = opts.demoPatients ? await seedPatients(admin) : [];
  return { doctors, patients };
}
