Deno.serve(
  () => new Response('plain hello', { headers: { 'Content-Type': 'text/plain; charset=utf-8' } }),
);
