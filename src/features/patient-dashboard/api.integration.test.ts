import { expect, it } from 'vitest';
import { createPatient, Device, platformForFile } from '../../../sync/testing/index.ts';
import { READ_RETRIES } from '@/domain/requests/retry-policy.ts';
import { deleteMyAccount, exportMyData } from './api.ts';

/** The LGPD calls of 'Meus Dados' against the real server (the SQL itself: tests/db/lgpd.test.ts). */
const t = platformForFile();

async function signedInPhone() {
  const person = await createPatient(t);
  const phone = new Device(t);
  await phone.signIn(person.email);
  return { person, phone };
}

/** Counts the pauses between attempts instead of sleeping through them. */
function countingWait() {
  const waits: number[] = [];
  return { waits, wait: (ms: number) => Promise.resolve(void waits.push(ms)) };
}

it("exports the signed-in person's own data", async () => {
  const { person, phone } = await signedInPhone();
  const exported = await exportMyData(phone.client);
  expect(exported.ok && exported.value).toMatchObject({ perfil: { email: person.email } });
});

it('asks again while the server is not reached, then answers retries-exhausted', async () => {
  const { phone } = await signedInPhone();
  void phone.net.block((url) => url.includes('/rpc/exportar_meus_dados'));
  const { waits, wait } = countingWait();
  const exported = await exportMyData(phone.client, wait);
  expect(exported.ok || exported.error.code).toBe('retries-exhausted');
  expect(waits).toHaveLength(READ_RETRIES);
});

it("takes the server's refusal at once", async () => {
  const { waits, wait } = countingWait();
  const exported = await exportMyData(t.client(), wait);
  expect(exported.ok).toBe(false);
  expect(waits).toEqual([]);
});

it("deletes the signed-in person's account", async () => {
  const { person, phone } = await signedInPhone();
  expect(await deleteMyAccount(phone.client)).toEqual({ ok: true, value: null });
  const { data } = await t.admin.from('perfis_usuarios').select('id').eq('id', person.id);
  expect(data).toEqual([]);
});
