import { setupHandler } from '../_shared/setup-handler.ts';

Deno.serve(setupHandler('paulo', 'create-and-link'));
