import { Temporal } from 'temporal-polyfill';
import { SAO_PAULO } from '../../src/domain/time/zone.ts';
import { testClient } from '../../sync/testing/index.ts';

/** Dra. Ana Ribeiro, the first doctor of supabase/seed.sql. */
export const SEEDED_ANA = 'a0000000-0000-4000-8000-000000000001';

/**
 * The seeded product's first booking, end to end through the API: a patient created with the
 * service key signs in and books Dra. Ana next Monday 09:00 in São Paulo (inside her seeded
 * weekday mornings). Returns the RPC's answer for the caller to check.
 */
export async function bookSeededMonday(
  url: string,
  keys: { anonKey: string; serviceRoleKey: string },
  email: string,
) {
  const created = await testClient(url, keys.serviceRoleKey).auth.admin.createUser({
    email,
    password: 'senha-forte-123',
    email_confirm: true,
    user_metadata: { full_name: 'Maria Oliveira', cpf: '52998224725', data_nasc: '1988-03-14' },
  });
  if (created.error) throw created.error;
  const patient = testClient(url, keys.anonKey);
  await patient.auth.signInWithPassword({ email, password: 'senha-forte-123' });
  const today = Temporal.Now.plainDateISO(SAO_PAULO);
  const start = today
    .add({ days: 8 - today.dayOfWeek })
    .toZonedDateTime({ timeZone: SAO_PAULO, plainTime: Temporal.PlainTime.from('09:00') })
    .toInstant()
    .toString();
  return patient.rpc('paciente_agendar', { p_medico_id: SEEDED_ANA, p_horario_inicio: start });
}
