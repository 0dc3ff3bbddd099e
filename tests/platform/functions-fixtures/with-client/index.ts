import { createClient } from '@supabase/supabase-js';
import { json } from '../_shared/json.ts';

/** Uses supabase-js against the platform with the service role, as product functions do. */
Deno.serve(async () => {
  const url = Deno.env.get('SUPABASE_URL');
  const key = Deno.env.get('SUPABASE_SERVICE_ROLE_KEY');
  if (!url || !key) return json({ error: 'missing env' }, 500);
  const admin = createClient(url, key, {
    auth: { persistSession: false, autoRefreshToken: false },
  });
  const { data, error } = await admin.storage.listBuckets();
  if (error) return json({ error: error.message }, 502);
  return json({ buckets: data.map((b) => b.id).sort() });
});
