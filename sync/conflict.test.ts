import { describe, expect, it } from 'vitest';
import { mergeOwnedDoc } from './conflict.ts';
import type { ReplicaDoc } from './tables.ts';

const FIELDS = ['hora_inicio', 'hora_fim', 'intervalo_em_minutos'];
const base: ReplicaDoc = {
  id: 'b1',
  hora_inicio: '08:00:00',
  hora_fim: '12:00:00',
  intervalo_em_minutos: 15,
  server_modified: 't1',
  _deleted: false,
};

describe('conflict rule for owned documents', () => {
  it('[P3] keeps local-only changes, takes server-only ones, and reports a field both changed', () => {
    const local = { ...base, hora_fim: '13:00:00', intervalo_em_minutos: 30 };
    const server = {
      ...base,
      hora_inicio: '07:00:00',
      hora_fim: '12:30:00',
      server_modified: 't2',
    };
    const { doc, dropped } = mergeOwnedDoc(
      { assumedMasterState: base, newDocumentState: local, realMasterState: server },
      FIELDS,
    );
    expect(doc).toEqual({
      ...base,
      hora_inicio: '07:00:00',
      hora_fim: '12:30:00',
      intervalo_em_minutos: 30,
      server_modified: 't2',
    });
    expect(dropped).toEqual([{ field: 'hora_fim', local: '13:00:00', server: '12:30:00' }]);
  });

  it('[P3] the same value written on both sides is not a conflict', () => {
    const local = { ...base, hora_fim: '13:00:00' };
    const server = { ...local, server_modified: 't2' };
    const { doc, dropped } = mergeOwnedDoc(
      { assumedMasterState: base, newDocumentState: local, realMasterState: server },
      FIELDS,
    );
    expect(doc).toEqual(server);
    expect(dropped).toEqual([]);
  });

  it('[P3] a document deleted on the server stays deleted and the local edit is reported', () => {
    const local = { ...base, hora_fim: '13:00:00' };
    const server = { ...base, _deleted: true, server_modified: 't2' };
    const result = mergeOwnedDoc(
      { assumedMasterState: base, newDocumentState: local, realMasterState: server },
      FIELDS,
    );
    expect(result).toEqual({
      doc: server,
      wholeServer: true,
      dropped: [{ field: 'hora_fim', local: '13:00:00', server: '12:00:00' }],
    });
  });

  it('[P3] a local delete of a document edited on the server gives way to the edit', () => {
    const local = { ...base, _deleted: true };
    const server = { ...base, hora_fim: '12:30:00', server_modified: 't2' };
    const result = mergeOwnedDoc(
      { assumedMasterState: base, newDocumentState: local, realMasterState: server },
      FIELDS,
    );
    expect(result.doc).toEqual(server);
    expect(result.dropped).toEqual([{ field: '_deleted', local: true, server: false }]);
  });
});
