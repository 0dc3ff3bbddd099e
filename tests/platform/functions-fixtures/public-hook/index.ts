/** Declared `verify_jwt = false` in the suite's config.toml: callable without a JWT. */
Deno.serve(() => new Response('hook ok'));
