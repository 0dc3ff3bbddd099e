import { describe, expect, it } from 'vitest';
import { deriveViewKeys, type RelationAttributes } from './view-keys.ts';

/**
 * `pg_rewrite.ev_action` as PostgreSQL prints it (abridged): escaped names, a Const whose value
 * spans several tokens, and a sub-select whose own target list must not count as the view's.
 */
const VIEW_ACTION =
  '({QUERY :commandType 1 :rtable ({RANGETBLENTRY :eref {ALIAS :aliasname m :colnames ("id" "sender_id")} :relid 100})' +
  ' :targetList (' +
  '{TARGETENTRY :expr {VAR :varno 1 :varattno 1} :resno 1 :resname vid :resorigtbl 100 :resorigcol 1 :resjunk false}' +
  ' {TARGETENTRY :expr {CONST :consttype 23 :constvalue 4 [ 1 0 0 0 ]} :resno 2 :resname we\\ ird\\} :resorigtbl 0 :resorigcol 0 :resjunk false}' +
  ' {TARGETENTRY :expr {SUBLINK :subselect {QUERY :targetList ({TARGETENTRY :expr {VAR :varno 1} :resno 1 :resname x :resorigtbl 100 :resorigcol 2 :resjunk false})}} :resno 3 :resname sub :resorigtbl 0 :resorigcol 0 :resjunk false}' +
  ' {TARGETENTRY :expr {VAR :varno 1 :varattno 2} :resno 4 :resname author :resorigtbl 100 :resorigcol 2 :resjunk false}' +
  ') :jointree <>})';

/** A view over that view, renaming again. */
const VIEW_OVER_VIEW_ACTION =
  '({QUERY :targetList ({TARGETENTRY :expr {VAR} :resno 1 :resname uid :resorigtbl 200 :resorigcol 4 :resjunk false})})';

const attributes = (name: string, columns: string[]): RelationAttributes => ({
  name,
  attnums: new Map(columns.map((c, i) => [i + 1, c])),
});

const relations = new Map([
  [100, attributes('messages', ['id', 'sender_id'])],
  [50, attributes('users', ['id'])],
  [200, attributes('v', ['vid', 'we ird}', 'sub', 'author'])],
  [201, attributes('w', ['uid'])],
]);

const senderFk = {
  name: 'messages_sender_fkey',
  table: 'messages',
  columns: ['sender_id'],
  refTable: 'users',
  refColumns: ['id'],
};

describe('deriveViewKeys', () => {
  it("gives a view the keys it shows under its own names, from its query's top level only", () => {
    const keys = deriveViewKeys(
      [
        { view: 'v', oid: 200, action: VIEW_ACTION },
        { view: 'w', oid: 201, action: VIEW_OVER_VIEW_ACTION },
      ],
      relations,
      [senderFk],
      [{ table: 'messages', columns: ['id'] }],
    );
    expect(keys.foreignKeys).toEqual([
      { ...senderFk, table: 'v', columns: ['author'] },
      { ...senderFk, table: 'w', columns: ['uid'] },
    ]);
    expect(keys.primaryKeys).toEqual(new Map([['v', ['vid']]]));
  });

  it('gives nothing for a key the view does not show whole', () => {
    const keys = deriveViewKeys(
      [{ view: 'w', oid: 201, action: VIEW_OVER_VIEW_ACTION }],
      relations,
      [{ ...senderFk, columns: ['sender_id', 'id'], refColumns: ['id', 'id'] }],
      [{ table: 'messages', columns: ['id'] }],
    );
    expect(keys.foreignKeys).toEqual([]);
    expect(keys.primaryKeys.size).toBe(0);
  });
});
