import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAccounts } from '../../scripts/seed-accounts.ts';
import { signApplicationToken } from '../../supabase/functions/_shared/application-token.ts';
import { startTestPlatform, type TestPlatform } from '../../sync/testing/index.ts';
import { SEED_FILE } from './support.ts';

const SETUP_TOKEN = 'token-de-configuracao-de-teste';
const ANA_ID = 'a0000000-0000-4000-8000-000000000001';
const PAULO_ID = 'a0000000-0000-4000-8000-000000000002';

let t: TestPlatform;

const WITH_AND_WITHOUT_TOKEN: Record<string, string>[] = [{}, { 'x-setup-token': SETUP_TOKEN }];

/** Calls a function the way supabase-js does (POST, JSON, apikey + bearer). */
async function invoke(
  name: string,
  opts: { body?: unknown; token?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${t.url}/functions/v1/${name}`, {
    method: 'POST',
    headers: {
      apikey: t.anonKey,
      authorization: `Bearer ${opts.token ?? t.anonKey}`,
      'content-type': 'application/json',
      ...opts.headers,
    },
    body: JSON.stringify(opts.body ?? {}),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function medico(id: string) {
  const { data } = await t.admin
    .from('medicos')
    .select('user_id, specialty, is_public, is_active, _deleted')
    .eq('id', id)
    .single<{
      user_id: string | null;
      specialty: string;
      is_public: boolean;
      is_active: boolean;
      _deleted: boolean;
    }>();
  return data!;
}

beforeAll(async () => {
  t = await startTestPlatform({ seedFile: SEED_FILE, config: { setupToken: SETUP_TOKEN } });
}, 60_000);

afterAll(() => t.stop());

describe('fixed-doctor setup functions', () => {
  it('link-doctor refuses when the account does not exist yet', async () => {
    const r = await invoke('link-second-doctor-ana');
    expect(r.status).toBe(404);
    expect(r.body.error).toBe(
      'Conta de Dra. Ana Ribeiro não encontrada. Crie a conta antes de vinculá-la.',
    );
  });

  it('create-and-link answers ok once, then exists, and never returns a password', async () => {
    const first = await invoke('create-and-link-ana');
    expect(first).toEqual({
      status: 200,
      body: {
        status: 'ok',
        message: 'Conta de Dra. Ana Ribeiro configurada e vinculada ao perfil de médico.',
      },
    });
    const again = await invoke('create-and-link-ana');
    expect(again.body).toEqual({
      status: 'exists',
      message: 'A conta de Dra. Ana Ribeiro já está configurada e vinculada.',
    });
    const ana = await medico(ANA_ID);
    expect(ana.user_id).not.toBeNull();
    const profile = await t.admin
      .from('perfis_usuarios')
      .select('role, email')
      .eq('id', ana.user_id!)
      .single();
    expect(profile.data).toEqual({ role: 'medico', email: 'ana.ribeiro@saudeja.example' });
  });

  it('create, link and sync are separate idempotent steps', async () => {
    expect((await invoke('create_doctor_paulo')).body.status).toBe('ok');
    expect((await invoke('create_doctor_paulo')).body).toEqual({
      status: 'exists',
      message: 'A conta de Dr. Paulo Mendes já existe.',
    });
    expect((await medico(PAULO_ID)).user_id).toBeNull();
    expect((await invoke('link-doctor-paulo')).body.status).toBe('ok');
    expect((await medico(PAULO_ID)).user_id).not.toBeNull();
    expect((await invoke('link-doctor-paulo')).body.status).toBe('exists');

    await t.admin.from('medicos').update({ specialty: 'Outra' }).eq('id', PAULO_ID);
    // Paulo is set up now: changing him needs the setup token.
    expect(await invoke('sync-doctor-paulo')).toEqual({
      status: 401,
      body: {
        error: 'Token de configuração inválido.',
        message: 'Token de configuração inválido.',
      },
    });
    expect((await medico(PAULO_ID)).specialty).toBe('Outra');
    const withToken = { headers: { 'x-setup-token': SETUP_TOKEN } };
    expect((await invoke('sync-doctor-paulo', withToken)).body).toEqual({
      status: 'ok',
      message: 'Perfil de Dr. Paulo Mendes sincronizado.',
    });
    expect((await medico(PAULO_ID)).specialty).toBe('Cardiologia');
    expect((await invoke('sync-doctor-paulo')).body.status).toBe('exists');
  });

  it('leave a doctor an administrator deactivated deactivated, token or not', async () => {
    await t.admin.from('medicos').update({ is_public: false, is_active: false }).eq('id', ANA_ID);
    for (const headers of WITH_AND_WITHOUT_TOKEN) {
      for (const name of ['sync-doctor-ana', 'create-and-link-ana', 'link-doctor-ana']) {
        const r = await invoke(name, { headers });
        expect(r).toMatchObject({ status: 200, body: { status: 'exists' } });
      }
    }
    expect(await medico(ANA_ID)).toMatchObject({ is_public: false, is_active: false });
    // The administrator brings her back (later tests book with her).
    await t.admin.from('medicos').update({ is_public: true, is_active: true }).eq('id', ANA_ID);
  });

  it('never restore a revoked doctor role', async () => {
    const { user_id } = await medico(ANA_ID);
    await t.admin.auth.admin.updateUserById(user_id!, { app_metadata: { role: 'paciente' } });
    for (const headers of WITH_AND_WITHOUT_TOKEN) {
      const r = await invoke('create-and-link-ana', { headers });
      expect(r.status).toBe(409);
      expect(r.body.error).toBe(
        'A conta de Dra. Ana Ribeiro existe, mas não tem o papel de médico. Nada foi alterado: só um administrador pode restaurá-lo.',
      );
    }
    const profile = await t.admin
      .from('perfis_usuarios')
      .select('role')
      .eq('id', user_id!)
      .single();
    expect(profile.data).toEqual({ role: 'paciente' });
    await t.admin.auth.admin.updateUserById(user_id!, { app_metadata: { role: 'medico' } });
  });

  it('without the token, never move a link an administrator made', async () => {
    const { user_id: paulo } = await medico(PAULO_ID);
    await t.admin.from('medicos').update({ user_id: null }).eq('id', PAULO_ID);
    const stranger = await t.admin.auth.admin.createUser({
      email: 'outra-pessoa@example.com',
      password: 'senha-forte-123',
      email_confirm: true,
      app_metadata: { role: 'medico' },
    });
    await t.admin.from('medicos').update({ user_id: stranger.data.user!.id }).eq('id', PAULO_ID);
    expect((await invoke('link-doctor-paulo')).status).toBe(401);
    expect((await medico(PAULO_ID)).user_id).toBe(stranger.data.user!.id);
    expect(
      (await invoke('link-doctor-paulo', { headers: { 'x-setup-token': SETUP_TOKEN } })).body
        .status,
    ).toBe('ok');
    expect((await medico(PAULO_ID)).user_id).toBe(paulo);
  });

  it('the start-up seeding agrees with the setup functions (no duplicate accounts)', async () => {
    const seeded = await seedAccounts({
      url: t.url,
      serviceRoleKey: t.serviceRoleKey,
      demoPatients: false,
    });
    expect(seeded.doctors.map((d) => d.password)).toEqual([undefined, undefined]);
  });

  it('create-and-link-ana-paulo sets up both doctors in one call, saying what each needed', async () => {
    await t.admin.from('medicos').update({ user_id: null }).eq('id', PAULO_ID);
    expect(await invoke('create-and-link-ana-paulo')).toEqual({
      status: 200,
      body: {
        status: 'ok',
        message:
          'A conta de Dra. Ana Ribeiro já está configurada e vinculada. ' +
          'Conta de Dr. Paulo Mendes configurada e vinculada ao perfil de médico.',
      },
    });
    expect((await medico(PAULO_ID)).user_id).not.toBeNull();
    expect((await invoke('create-and-link-ana-paulo')).body).toEqual({
      status: 'exists',
      message:
        'A conta de Dra. Ana Ribeiro já está configurada e vinculada. ' +
        'A conta de Dr. Paulo Mendes já está configurada e vinculada.',
    });
  });
});

describe('cleanup-and-unify-doctors', () => {
  it('requires the setup token', async () => {
    expect((await invoke('cleanup-and-unify-doctors')).status).toBe(401);
    const wrong = await invoke('cleanup-and-unify-doctors', {
      headers: { 'x-setup-token': 'errado' },
    });
    expect(wrong).toEqual({ status: 401, body: { error: 'Token de configuração inválido.' } });
  });

  it('retires duplicates of a fixed doctor and keeps the linked one', async () => {
    const dup = await t.admin
      .from('medicos')
      .insert({
        name: 'Ana',
        public_name: 'Dra. Ana Ribeiro',
        specialty: 'X',
        crm: '1',
        uf: 'SP',
        is_public: true,
      })
      .select('id')
      .single<{ id: string }>();
    const headers = { 'x-setup-token': SETUP_TOKEN };
    const r = await invoke('cleanup-and-unify-doctors', { headers });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      status: 'ok',
      message: '1 perfil(is) duplicado(s) removido(s).',
      details: [{ doctor: 'Dra. Ana Ribeiro', kept: ANA_ID, removed: [dup.data!.id] }],
    });
    expect(await medico(dup.data!.id)).toMatchObject({ is_public: false, _deleted: true });
    expect((await medico(ANA_ID)).user_id).not.toBeNull();
    expect((await invoke('cleanup-and-unify-doctors', { headers })).body).toMatchObject({
      status: 'exists',
      message: 'Nenhum perfil duplicado encontrado.',
    });
  });
});

describe('process-doctor-application', () => {
  async function application(): Promise<string> {
    const { data } = await t.admin
      .from('doctor_applications')
      .insert({
        full_name: 'Dra. Beatriz Lima',
        email: 'bia@test.example',
        crm: '4321',
        uf: 'MG',
        specialty: 'Dermatologia',
      })
      .select('id')
      .single<{ id: string }>();
    return data!.id;
  }
  const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;

  it.each([{}, { action: 'approve' }, { token: 'x' }, { action: '', token: '' }])(
    'refuses missing parameters %j with the product-rules message',
    async (body) => {
      expect(await invoke('process-doctor-application', { body })).toEqual({
        status: 400,
        body: { success: false, message: 'Parâmetros inválidos. Ação ou token ausente.' },
      });
    },
  );

  it('refuses forged, foreign and expired tokens', async () => {
    const id = await application();
    const forged = await signApplicationToken('outro-segredo', id, inAnHour());
    const expired = await signApplicationToken(
      t.serviceRoleKey,
      id,
      Math.floor(Date.now() / 1000) - 1,
    );
    const malformed = ['x.y', 'abcde.y', `${forged.split('.')[0]}.a`];
    for (const token of [forged, expired, 'lixo', `${forged}.extra`, ...malformed]) {
      const r = await invoke('process-doctor-application', { body: { action: 'approve', token } });
      expect(r).toEqual({
        status: 401,
        body: { success: false, message: 'Token inválido ou expirado.' },
      });
    }
  });

  it('approves once, creating a hidden doctor record', async () => {
    const id = await application();
    const token = await signApplicationToken(t.serviceRoleKey, id, inAnHour());
    const r = await invoke('process-doctor-application', { body: { action: 'approve', token } });
    expect(r).toEqual({
      status: 200,
      body: { success: true, message: 'Solicitação aprovada. O cadastro do médico foi criado.' },
    });
    const { data } = await t.admin
      .from('doctor_applications')
      .select('status, medico_id')
      .eq('id', id)
      .single<{ status: string; medico_id: string }>();
    expect(data!.status).toBe('aprovado');
    expect(await medico(data!.medico_id)).toMatchObject({
      is_public: false,
      is_active: false,
      specialty: 'Dermatologia',
    });
    const replay = await invoke('process-doctor-application', {
      body: { action: 'reject', token },
    });
    expect(replay).toEqual({
      status: 409,
      body: { success: false, message: 'Esta solicitação já foi processada.' },
    });
  });

  it('rejects, and refuses unknown actions and applications', async () => {
    const id = await application();
    const token = await signApplicationToken(t.serviceRoleKey, id, inAnHour());
    expect(
      (await invoke('process-doctor-application', { body: { action: 'delete', token } })).body
        .message,
    ).toBe('Ação inválida.');
    expect(
      (await invoke('process-doctor-application', { body: { action: 'reject', token } })).body,
    ).toEqual({
      success: true,
      message: 'Solicitação rejeitada.',
    });
    const unknown = await signApplicationToken(t.serviceRoleKey, randomUUID(), inAnHour());
    expect(
      await invoke('process-doctor-application', { body: { action: 'reject', token: unknown } }),
    ).toEqual({
      status: 404,
      body: { success: false, message: 'Solicitação não encontrada.' },
    });
  });
});
