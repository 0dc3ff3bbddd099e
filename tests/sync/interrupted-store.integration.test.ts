import { expect, it } from 'vitest';
import { device, platformForFile, rows, settled, until } from '../../sync/testing/index.ts';

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
async function forgetReplicationRecords(factory: IDBFactory, docId: string): Promise<number> {
  let removed = 0;
  for (const { name } of await factory.databases()) {
    if (!name?.includes('rx-replication-meta-')) continue;
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = factory.open(name);
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error ?? new Error(`could not open ${name}`));
    });
    if (db.objectStoreNames.contains('docs')) {
      await new Promise<void>((resolve, reject) => {
        const tx = db.transaction('docs', 'readwrite');
        const cursor = tx.objectStore('docs').openCursor();
        cursor.onsuccess = () => {
          const c = cursor.result;
          if (!c) return;
          const value = c.value as { itemId?: string; isCheckpoint?: string };
          if (value.itemId === docId && value.isCheckpoint === '0') {
            c.delete();
            removed += 1;
          }
          c.continue();
        };
        tx.oncomplete = () => resolve();
        tx.onerror = () => reject(tx.error ?? new Error('meta delete failed'));
      });
    }
    db.close();
  }
  return removed;
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
