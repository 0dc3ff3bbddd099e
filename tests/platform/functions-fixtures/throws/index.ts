Deno.serve(() => {
  throw new Error('internal detail that must not leak');
});
