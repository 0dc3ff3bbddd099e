import { expect, it } from 'vitest';
import { createDoctor, Device, platformForFile } from '../../../sync/testing/index.ts';
import { uploadAvatar } from './api.ts';

/** The doctor's photo upload against the real storage (the bucket's rules: tests/platform). */
const t = platformForFile();

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

async function signedInDoctor() {
  const doctor = await createDoctor(t);
  const phone = new Device(t);
  await phone.signIn(doctor.email);
  return { doctor, phone };
}

it("stores the photo in the doctor's own folder and answers its public URL", async () => {
  const { doctor, phone } = await signedInDoctor();
  const sent = await uploadAvatar(
    phone.client,
    doctor.id,
    new File([PNG], 'Foto Nova.png', { type: 'image/png' }),
  );
  if (!sent.ok) throw new Error(sent.error.cause);
  expect(sent.value).toMatch(new RegExp(`/avatars/${doctor.id}/\\d+_Foto_Nova\\.png$`));
  const served = await fetch(sent.value);
  expect(new Uint8Array(await served.arrayBuffer())).toEqual(PNG);
});

it("answers the storage's refusal as a value, and nothing is stored", async () => {
  const { phone } = await signedInDoctor();
  const other = await createDoctor(t);
  const file = new File([PNG], 'x.png', { type: 'image/png' });
  const sent = await uploadAvatar(phone.client, other.id, file);
  expect(sent.ok || sent.error.code).toBe('permission-denied');
  const { data } = await t.admin.storage.from('avatars').list(other.id);
  expect(data).toEqual([]);
});
