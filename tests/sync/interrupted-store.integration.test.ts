import { expect, it } from 'vitest';
import {
  device,
  editStoredDocs,
  platformForFile,
  rows,
  settled,
  until,
} from '../../sync/testing/index.ts';

const t = platformForFile();

/**
 * RxDB stores a pulled row in two writes: the document, then its replication record (the
 * "assumed master state" a later push is based on). A page closed between the two leaves the
 * document without that record; the mark RxDB keeps in the document for this case must survive
 * its storage wrapper (patches/rxdb+17.6.0.patch), or the replication takes the document for
 * an unpushed local edit: it stops taking the server's versions of it, and the person's next
 * edit goes out without a base and is dropped as soon as the server row has moved on (as a
 * first booking moves the patient's profile).
 */
function forgetReplicationRecords(factory: IDBFactory, docId: string): Promise<number> {
  return editStoredDocs(factory, 'rx-replication-meta-', (record) =>
    record['itemId'] === docId && record['isCheckpoint'] === '0' ? null : undefined,
  );
}

it('[X4] a page closed between storing a pulled row and its replication record: the row still follows the server, and the next edit is sent', async () => {
  const phone = await device(t, { role: 'paciente' });
  const id = phone.person.id;
  await until(phone.sync.profile$, (p) => p?.id === id);

  await phone.stop();
  expect(await forgetReplicationRecords(phone.indexedDB, id)).toBe(1);
  await phone.start(phone.user);

  // The server moves the row on, as a first booking does, and changes a column the person
  // does not edit: the replica must take that version.
  await rows(
    t.admin.from('perfis_usuarios').update({ lembretes_email: false }).eq('id', id).select(),
  );
  await until(phone.sync.profile$, (p) => p?.lembretes_email === false);

  const saved = await phone.sync.updateProfile({ whatsapp: '(11) 91234-5678' });
  expect(saved.ok).toBe(true);
  await settled(phone);

  const [server] = await rows(
    t.admin.from('perfis_usuarios').select('whatsapp, lembretes_email').eq('id', id),
  );
  expect(server).toEqual({ whatsapp: '(11) 91234-5678', lembretes_email: false });
});
