import { json } from '../_shared/json.ts';

Deno.serve(() =>
  json({ error: 'appointment_not_found', message: 'Consulta não encontrada.' }, 422),
);
