import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../../sync/testing/index.ts';

/**
 * The personal fields of a sign-up (name, CPF, birth date, WhatsApp) live in the profile only:
 * no auth answer carries them, not even a second sign-up with the same unconfirmed address.
 */
let t: TestPlatform;

beforeAll(async () => {
  t = await startTestPlatform({ config: { autoconfirm: false, bcryptCost: 4 } });
}, 60_000);

afterAll(() => t.stop());

const PERSON = {
  full_name: 'Joana Pereira da Silva',
  cpf: '52998224725',
  data_nasc: '1991-07-23',
  whatsapp: '(11) 91234-5678',
};

describe('personal data given at sign-up', () => {
  it('reaches the profile and leaves the user metadata', async () => {
    const email = 'joana@example.com';
    const first = await t.client().auth.signUp({
      email,
      password: 'senha-forte-123',
      options: { data: { ...PERSON, role: 'paciente' } },
    });
    expect(first.error).toBeNull();
    const id = first.data.user!.id;

    const profile = await t.admin
      .from('perfis_usuarios')
      .select('full_name, cpf, data_nasc, whatsapp')
      .eq('id', id)
      .single();
    expect(profile.data).toEqual(PERSON);

    const { data } = await t.admin.auth.admin.getUserById(id);
    expect(data.user?.user_metadata).toMatchObject({ role: 'paciente', email });
    for (const key of Object.keys(PERSON)) expect(data.user?.user_metadata).not.toHaveProperty(key);
    expect(JSON.stringify(data.user?.identities)).not.toContain(PERSON.cpf);
  });

  it('is not answered to someone signing up again with the unconfirmed address', async () => {
    const again = await t.client().auth.signUp({
      email: 'joana@example.com',
      password: 'outra-senha-456',
    });
    expect(again.error).toBeNull();
    const answer = JSON.stringify(again.data);
    for (const value of Object.values(PERSON)) expect(answer).not.toContain(value);
  });
});
