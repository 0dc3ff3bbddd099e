import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAccounts } from '../../scripts/seed-accounts.ts';
import { startTestPlatform, type TestPlatform } from '../../sync/testing/index.ts';
import { SEED_FILE } from './support.ts';

let p: TestPlatform;

beforeAll(async () => {
  p = await startTestPlatform({ seedFile: SEED_FILE });
}, 60_000);

afterAll(() => p.stop());

describe('seedAccounts', () => {
  it('creates the fixed doctors once, printing their one-time passwords only then', async () => {
    const first = await seedAccounts({
      url: p.url,
      serviceRoleKey: p.serviceRoleKey,
      demoPatients: true,
    });
    expect(first.doctors.map((d) => d.email)).toEqual([
      'ana.ribeiro@saudeja.example',
      'paulo.mendes@saudeja.example',
    ]);
    for (const d of first.doctors) expect(d.password).toMatch(/^[\w-]{24}$/);

    const again = await seedAccounts({
      url: p.url,
      serviceRoleKey: p.serviceRoleKey,
      demoPatients: true,
    });
    expect(again.doctors.map((d) => d.password)).toEqual([undefined, undefined]);
    expect(again.patients).toEqual(first.patients);

    const doctor = p.client();
    const signIn = await doctor.auth.signInWithPassword({
      email: 'ana.ribeiro@saudeja.example',
      password: first.doctors[0]!.password!,
    });
    expect(signIn.error).toBeNull();
    expect(signIn.data.user?.user_metadata.require_password_change).toBe(true);
    const own = await doctor
      .from('medicos')
      .select('id, public_name')
      .eq('user_id', signIn.data.user!.id);
    expect(own.data).toEqual([
      { id: 'a0000000-0000-4000-8000-000000000001', public_name: 'Dra. Ana Ribeiro' },
    ]);
    const profile = await doctor.from('perfis_usuarios').select('role').single();
    expect(profile.data).toEqual({ role: 'medico' });
  });

  it('creates demo patients with complete profiles who can book', async () => {
    const { patients } = await seedAccounts({
      url: p.url,
      serviceRoleKey: p.serviceRoleKey,
      demoPatients: true,
    });
    const patient = p.client();
    const signIn = await patient.auth.signInWithPassword({
      email: patients[0]!.email,
      password: patients[0]!.password!,
    });
    expect(signIn.error).toBeNull();
    const profile = await patient
      .from('perfis_usuarios')
      .select('role, full_name, cpf, data_nasc')
      .single();
    expect(profile.data).toEqual({
      role: 'paciente',
      full_name: 'Maria Oliveira',
      cpf: '52998224725',
      data_nasc: '1988-03-14',
    });
  });
});
