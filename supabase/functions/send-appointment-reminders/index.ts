import { handleReminders } from './handler.ts';

Deno.serve(handleReminders);
