import * as v from 'valibot';
import type { AppSupabaseClient } from '@/lib/supabase.ts';

export const RoleSchema = v.picklist(['paciente', 'medico']);
export type Role = v.InferOutput<typeof RoleSchema>;

const ProfileSchema = v.object({
  id: v.string(),
  role: RoleSchema,
  full_name: v.nullable(v.string()),
  email: v.nullable(v.string()),
  cpf: v.nullable(v.string()),
  data_nasc: v.nullable(v.string()),
  whatsapp: v.nullable(v.string()),
});
export type Profile = v.InferOutput<typeof ProfileSchema>;

const PROFILE_COLUMNS = 'id, role, full_name, email, cpf, data_nasc, whatsapp';

/** docs/product-rules.md §9: the profile row may lag the sign-up trigger, so the first read retries. */
export const PROFILE_ATTEMPTS_FIRST = 3;
export const PROFILE_ATTEMPTS_LATER = 1;
export const PROFILE_RETRY_DELAY_MS = 500;

export type ProfileResult =
  { kind: 'found'; profile: Profile } | { kind: 'missing' } | { kind: 'unreachable' };

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Reads the signed-in person's profile, retrying while it is absent or the request fails. */
export async function fetchProfile(
  client: AppSupabaseClient,
  userId: string,
  attempts: number,
): Promise<ProfileResult> {
  let last: ProfileResult = { kind: 'missing' };
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const { data, error } = await client
      .from('perfis_usuarios')
      .select(PROFILE_COLUMNS)
      .eq('id', userId)
      .maybeSingle();
    if (!error && data) {
      const parsed = v.safeParse(ProfileSchema, data);
      if (parsed.success) return { kind: 'found', profile: parsed.output };
    }
    last = error ? { kind: 'unreachable' } : { kind: 'missing' };
    if (attempt < attempts) await wait(PROFILE_RETRY_DELAY_MS);
  }
  return last;
}

const cacheKey = (userId: string) => `saude-ja:profile:${userId}`;

/**
 * The last profile seen for this user, so the app still knows the person's role when it
 * starts without a connection.
 */
export function readCachedProfile(userId: string): Profile | null {
  try {
    const raw = localStorage.getItem(cacheKey(userId));
    if (!raw) return null;
    const parsed = v.safeParse(ProfileSchema, JSON.parse(raw));
    return parsed.success ? parsed.output : null;
  } catch {
    return null;
  }
}

export function writeCachedProfile(profile: Profile | null, userId: string): void {
  try {
    if (profile) localStorage.setItem(cacheKey(userId), JSON.stringify(profile));
    else localStorage.removeItem(cacheKey(userId));
  } catch {
    // Storage may be unavailable (private mode); the profile is then only kept in memory.
  }
}
