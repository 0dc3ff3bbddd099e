import { json } from '../_shared/json.ts';

/** Reports the environment a function sees, read at request time as the contract requires. */
Deno.serve(() => {
  const env = Deno.env.toObject();
  return json({
    SUPABASE_URL: Deno.env.get('SUPABASE_URL') ?? null,
    SUPABASE_ANON_KEY: Deno.env.get('SUPABASE_ANON_KEY') ?? null,
    SUPABASE_SERVICE_ROLE_KEY: Deno.env.get('SUPABASE_SERVICE_ROLE_KEY') ?? null,
    MAILBOX_URL: Deno.env.get('MAILBOX_URL') ?? null,
    SETUP_TOKEN: Deno.env.get('SETUP_TOKEN') ?? null,
    GREETING: Deno.env.get('GREETING') ?? null,
    HOME: Deno.env.get('HOME') ?? null,
    names: Object.keys(env).sort(),
  });
});
