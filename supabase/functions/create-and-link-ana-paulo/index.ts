import { setupHandler } from '../_shared/setup-handler.ts';

Deno.serve(setupHandler(['ana', 'paulo'], 'create-and-link'));
