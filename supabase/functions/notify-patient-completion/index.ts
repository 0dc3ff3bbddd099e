import { handleNotify } from './handler.ts';

Deno.serve(handleNotify);
