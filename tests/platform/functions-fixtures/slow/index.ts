/** Never answers: the runner's wall-clock limit must. */
Deno.serve(() => new Promise<Response>(() => {}));
