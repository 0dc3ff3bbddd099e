import { handleTurnCredentials } from './handler.ts';

Deno.serve(handleTurnCredentials);
