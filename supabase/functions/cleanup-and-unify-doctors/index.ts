import { handleCleanup } from './handler.ts';

Deno.serve(handleCleanup);
