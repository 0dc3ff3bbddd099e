import { Temporal } from 'temporal-polyfill';
import type { ApiResult } from '@/domain/errors/app-error.ts';
import { avatarPath } from '@/domain/doctors/avatar.ts';
import { mapServerError } from '@/domain/errors/map-server-error.ts';
import type { AppSupabaseClient } from '@/lib/supabase.ts';

/** The doctor's dashboard's calls that only work online; everything else goes through the replica. */

/**
 * docs/product-rules.md §7 Storage: the photo goes to the 'avatars' bucket at
 * {user id}/{timestamp}_{filename}, with upsert; the answer is its public URL.
 */
export async function uploadAvatar(
  client: AppSupabaseClient,
  userId: string,
  file: File,
): Promise<ApiResult<string>> {
  const path = avatarPath(userId, Temporal.Now.instant().epochMilliseconds, file.name);
  const bucket = client.storage.from('avatars');
  const sent = await bucket.upload(path, file, { upsert: true, contentType: file.type });
  if (sent.error) return { ok: false, error: mapServerError(sent.error) };
  return { ok: true, value: bucket.getPublicUrl(sent.data.path).data.publicUrl };
}
