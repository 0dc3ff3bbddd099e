/** Declared `verify_jwt = false` by the suite (functions.test.ts): callable without a JWT. */
Deno.serve(() => new Response('hook ok'));
