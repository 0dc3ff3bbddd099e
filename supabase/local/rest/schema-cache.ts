import type { Queryable } from '../db/index.ts';
import type { ForeignKey } from './foreign-key.ts';
import {
  deriveViewKeys,
  type RelationAttributes,
  type ViewKeys,
  type ViewRule,
} from './view-keys.ts';

export type Column = {
  name: string;
  type: string;
  hasDefault: boolean;
  /** The SQL of its DEFAULT (an identity's `nextval`), for `Prefer: missing=default`. */
  default?: string | null;
};

export type Relation = {
  name: string;
  kind: 'table' | 'view';
  columns: Map<string, Column>;
  /**
   * Primary key columns in key order; a view has its table's when it shows every column of it
   * (under the view's names), as in PostgREST; empty for key-less tables.
   */
  pk: string[];
  /**
   * Computed fields: functions taking this relation's row and returning one scalar
   * (`blurb_message(messages)`), selectable, filterable and orderable like columns.
   */
  computed: Map<string, Column>;
};

/**
 * A function taking a row of `parent` and returning rows of `target` (`get_messages(channels)`):
 * embeddable under its own name, as PostgREST's computed relationships.
 */
export type ComputedRelationship = {
  fn: string;
  parent: string;
  target: string;
  toOne: boolean;
};

export type FunctionArg = { name: string; type: string; hasDefault: boolean };

export type FunctionDef = {
  name: string;
  args: FunctionArg[];
  returnsSet: boolean;
  /** Returns at most one row: not a set, or a set declared `rows 1` (a to-one relationship). */
  singleRow: boolean;
  /** `void`, a scalar, or rows (composite types, `returns table`, out parameters). */
  returns: 'void' | 'scalar' | 'rows';
  /** The declared return type, as `format_type` prints it. */
  returnType: string;
  /** Columns of each returned row when `returns` is `rows`. */
  columns: Column[];
  /** The table whose row type is returned, when it is one (enables embedding). */
  table: string | undefined;
  /** The relation whose row type the only parameter takes, when it is one. */
  argRelation: string | undefined;
  /**
   * Whether `/rpc` may call it (PostgREST's schema cache holds only these): every parameter
   * named, or a single unnamed one of a type a whole body can fill.
   */
  callable: boolean;
};

/** The types of a single unnamed parameter that still leaves a function callable. */
const UNNAMED_CALLABLE = new Set(['bytea', 'json', 'jsonb', 'text', 'xml']);

export type SchemaCache = {
  /** The exposed schema this cache describes (one of PostgREST's db-schemas). */
  schema: string;
  relations: Map<string, Relation>;
  foreignKeys: ForeignKey[];
  functions: Map<string, FunctionDef[]>;
  computedRelationships: ComputedRelationship[];
  /**
   * `statement_timeout` of each role that sets one (`alter role … set`), this database's over
   * the cluster-wide one: applied to the requests acting as that role, as PostgREST does.
   */
  statementTimeouts: Map<string, string>;
};

/**
 * One catalog query for everything the request planner needs from one exposed schema
 * ($1). It runs at startup and again whenever a request names something unknown.
 */
const CATALOG_SQL = `
with rels as (
  select c.oid, c.relname, c.relkind
  from pg_class c
  where c.relnamespace = $1::regnamespace and c.relkind in ('r', 'p', 'v', 'm', 'f')
),
cols as (
  select a.attrelid, json_agg(json_build_object(
           'name', a.attname,
           'type', format_type(a.atttypid, a.atttypmod),
           'hasDefault', a.atthasdef or a.attidentity <> '' or a.attgenerated <> '',
           'default', case
             when a.attgenerated <> '' then null
             when a.attidentity <> '' then
               format('nextval(%L::regclass)', pg_get_serial_sequence(a.attrelid::regclass::text, a.attname))
             else pg_get_expr(d.adbin, d.adrelid)
           end
         ) order by a.attnum) as columns,
         json_agg(a.attnum order by a.attnum) as attnums
  from pg_attribute a
  left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
  where a.attnum > 0 and not a.attisdropped
  group by a.attrelid
)
select json_build_object(
  'relations', (
    select coalesce(json_agg(json_build_object(
      'name', r.relname,
      'oid', r.oid::int8,
      'attnums', coalesce(cols.attnums, '[]'),
      'kind', case when r.relkind in ('r', 'p', 'f') then 'table' else 'view' end,
      'columns', coalesce(cols.columns, '[]'),
      'pk', coalesce((
        select json_agg(a.attname order by k.ord)
        from pg_constraint pk
        cross join lateral unnest(pk.conkey) with ordinality as k(attnum, ord)
        join pg_attribute a on a.attrelid = pk.conrelid and a.attnum = k.attnum
        where pk.conrelid = r.oid and pk.contype = 'p'
      ), '[]')
    )), '[]')
    from rels r left join cols on cols.attrelid = r.oid
  ),
  'foreignKeys', (
    select coalesce(json_agg(json_build_object(
      'name', fk.conname,
      'table', src.relname,
      'refTable', dst.relname,
      'columns', (select json_agg(a.attname order by k.ord)
                  from unnest(fk.conkey) with ordinality as k(attnum, ord)
                  join pg_attribute a on a.attrelid = fk.conrelid and a.attnum = k.attnum),
      'refColumns', (select json_agg(a.attname order by k.ord)
                     from unnest(fk.confkey) with ordinality as k(attnum, ord)
                     join pg_attribute a on a.attrelid = fk.confrelid and a.attnum = k.attnum)
    )), '[]')
    from pg_constraint fk
    join pg_class src on src.oid = fk.conrelid
    join pg_class dst on dst.oid = fk.confrelid
    where fk.contype = 'f'
      and src.relnamespace = $1::regnamespace
      and dst.relnamespace = $1::regnamespace
  ),
  'functions', (
    select coalesce(json_agg(json_build_object(
      'name', p.proname,
      'returnsSet', p.proretset,
      'rows', p.prorows,
      'nDefaults', p.pronargdefaults,
      'argNames', coalesce(p.proargnames, '{}'),
      'argModes', coalesce(p.proargmodes::text[], '{}'),
      'argTypes', (select coalesce(json_agg(format_type(t, null) order by o), '[]')
                   from unnest(coalesce(p.proallargtypes, p.proargtypes::oid[])) with ordinality as x(t, o)),
      'retType', format_type(p.prorettype, null),
      'retKind', rt.typtype,
      'retTable', (select rc.relname from pg_class rc
                   where rc.oid = rt.typrelid and rc.relnamespace = $1::regnamespace
                     and rc.relkind in ('r', 'p', 'v', 'm', 'f')),
      'retColumns', coalesce(cols.columns, '[]'),
      'argRelation', (select arel.relname from pg_type atyp join pg_class arel on arel.oid = atyp.typrelid
                      where p.pronargs = 1 and atyp.oid = p.proargtypes[0]
                        and arel.relnamespace = $1::regnamespace)
    ) order by p.oid), '[]')
    from pg_proc p
    join pg_type rt on rt.oid = p.prorettype
    left join cols on cols.attrelid = rt.typrelid
    where p.pronamespace = $1::regnamespace and p.prokind = 'f'
  ),
  'viewRules', (
    select coalesce(json_agg(json_build_object(
      'view', v.relname, 'oid', v.oid::int8, 'action', rw.ev_action::text
    )), '[]')
    from pg_class v
    join pg_rewrite rw on rw.ev_class = v.oid and rw.rulename = '_RETURN'
    where v.relnamespace = $1::regnamespace and v.relkind in ('v', 'm')
  ),
  'statementTimeouts', (
    select coalesce(json_object_agg(t.rolname, t.setting), '{}')
    from (
      select distinct on (o.rolname) o.rolname, substr(c, length('statement_timeout=') + 1) as setting
      from pg_db_role_setting s
      join pg_roles o on o.oid = s.setrole
      cross join unnest(s.setconfig) as c
      where c like 'statement_timeout=%'
        and s.setdatabase in (0, (select oid from pg_database where datname = current_database()))
      order by o.rolname, s.setdatabase desc
    ) t
  )
)::text as cache`;

type RawFunction = {
  name: string;
  returnsSet: boolean;
  rows: number;
  nDefaults: number;
  argNames: string[];
  argModes: string[];
  argTypes: string[];
  retType: string;
  retKind: string;
  retTable: string | null;
  retColumns: Column[];
  argRelation: string | null;
};

type RawRelation = {
  name: string;
  oid: number;
  attnums: number[];
  kind: 'table' | 'view';
  columns: Column[];
  pk: string[];
};

type RawCache = {
  relations: RawRelation[];
  foreignKeys: ForeignKey[];
  functions: RawFunction[];
  viewRules: ViewRule[];
  statementTimeouts: Record<string, string>;
};

function toFunction(f: RawFunction): FunctionDef {
  const modes = f.argModes.length ? f.argModes : f.argTypes.map(() => 'i');
  const inputs: FunctionArg[] = [];
  const outputs: Column[] = [];
  modes.forEach((mode, i) => {
    const name = f.argNames[i] ?? '';
    const type = f.argTypes[i] ?? 'unknown';
    if (mode === 'i' || mode === 'b' || mode === 'v')
      inputs.push({ name, type, hasDefault: false });
    if (mode === 'o' || mode === 'b' || mode === 't')
      outputs.push({ name, type, hasDefault: false });
  });
  inputs.forEach((a, i) => (a.hasDefault = i >= inputs.length - f.nDefaults));
  const outParamRows = outputs.length > 1 || (outputs.length === 1 && modes.includes('t'));
  const returns: FunctionDef['returns'] =
    f.retType === 'void' ? 'void' : outParamRows || f.retKind === 'c' ? 'rows' : 'scalar';
  return {
    name: f.name,
    args: inputs,
    returnsSet: f.returnsSet,
    singleRow: !f.returnsSet || Number(f.rows) === 1,
    returns,
    returnType: f.retType,
    columns: outParamRows ? outputs : f.retColumns,
    table: f.retTable ?? undefined,
    argRelation: f.argRelation ?? undefined,
    callable: isCallable(inputs, f.argNames.length > 0),
  };
}

/**
 * PostgREST's test: a function that names any parameter names them all for it (an unnamed one
 * among named ones is called `''`); one that names none is callable only with a single
 * parameter of a body type.
 */
function isCallable(inputs: readonly FunctionArg[], namesAny: boolean): boolean {
  if (namesAny || inputs.length === 0) return true;
  return inputs.length === 1 && UNNAMED_CALLABLE.has(inputs[0]?.type ?? '');
}

export async function loadSchemaCache(db: Queryable, schema: string): Promise<SchemaCache> {
  const { rows } = await db.query<{ cache: string }>(CATALOG_SQL, [schema]);
  const raw = JSON.parse(rows[0]?.cache ?? '{}') as RawCache;
  const functions = new Map<string, FunctionDef[]>();
  for (const f of raw.functions) {
    const list = functions.get(f.name) ?? [];
    list.push(toFunction(f));
    functions.set(f.name, list);
  }
  const views = viewKeysOf(raw);
  const relations = new Map<string, Relation>(
    raw.relations.map((r) => [
      r.name,
      {
        name: r.name,
        kind: r.kind,
        pk: views.primaryKeys.get(r.name) ?? r.pk,
        columns: new Map(r.columns.map((c) => [c.name, c])),
        computed: new Map(),
      },
    ]),
  );
  return {
    schema,
    relations,
    foreignKeys: [...raw.foreignKeys, ...views.foreignKeys],
    functions,
    computedRelationships: attachComputed(relations, functions),
    statementTimeouts: new Map(Object.entries(raw.statementTimeouts)),
  };
}

/** The keys views take from the tables they show (view-keys.ts), from the raw catalog. */
function viewKeysOf(raw: RawCache): ViewKeys {
  const attributes = new Map<number, RelationAttributes>(
    raw.relations.map((r) => [
      Number(r.oid),
      { name: r.name, attnums: new Map(r.attnums.map((n, i) => [n, r.columns[i]?.name ?? ''])) },
    ]),
  );
  const primaryKeys = raw.relations
    .filter((r) => r.kind === 'table' && r.pk.length)
    .map((r) => ({ table: r.name, columns: r.pk }));
  return deriveViewKeys(raw.viewRules, attributes, raw.foreignKeys, primaryKeys);
}

/**
 * Functions over one relation's row: scalar ones become its computed fields, row-returning
 * ones its computed relationships.
 */
function attachComputed(
  relations: Map<string, Relation>,
  functions: Map<string, FunctionDef[]>,
): ComputedRelationship[] {
  const rels: ComputedRelationship[] = [];
  for (const overloads of functions.values()) {
    for (const f of overloads) {
      const parent = f.argRelation && relations.get(f.argRelation);
      if (!parent) continue;
      if (f.returns === 'scalar' && !f.returnsSet) {
        parent.computed.set(f.name, { name: f.name, type: f.returnType, hasDefault: false });
      } else if (f.returns === 'rows' && f.table) {
        rels.push({ fn: f.name, parent: parent.name, target: f.table, toOne: f.singleRow });
      }
    }
  }
  return rels;
}

/**
 * Keeps the cache current without a reload per request: callers ask for a reload when a name
 * is unknown; concurrent asks share one catalog query.
 */
export function createSchemaCacheHolder(db: Queryable, schema: string) {
  let current: Promise<SchemaCache> | undefined;
  let reloading: Promise<SchemaCache> | undefined;
  // A failed load (database briefly unreachable) must not stick: the next request retries.
  const load = () =>
    loadSchemaCache(db, schema).catch((e: unknown) => {
      current = undefined;
      throw e;
    });
  return {
    get(): Promise<SchemaCache> {
      current ??= load();
      return current;
    },
    reload(): Promise<SchemaCache> {
      reloading ??= load().finally(() => (reloading = undefined));
      current = reloading;
      return reloading;
    },
  };
}
