import { handleApplication } from './handler.ts';

Deno.serve((req) => handleApplication(req));
