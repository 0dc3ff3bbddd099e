import { apiError, fail, ok, type Result } from './errors.ts';

export type Preferences = {
  return: 'minimal' | 'representation' | 'headers-only' | undefined;
  /** `Prefer: count=…`: counted, read from the planner, or counted up to db-max-rows. */
  count: 'exact' | 'planned' | 'estimated' | undefined;
  resolution: 'merge-duplicates' | 'ignore-duplicates' | undefined;
  missingDefault: boolean;
  strict: boolean;
  maxAffected: number | undefined;
  /** `Prefer: tx=…`, honoured only when db-tx-end allows an override (rest/settings.ts). */
  tx: 'commit' | 'rollback' | undefined;
  /** `Prefer: params=single-object`: an RPC's whole JSON body is its one json/jsonb argument. */
  singleObject: boolean;
};

const KNOWN: Record<string, readonly string[]> = {
  return: ['minimal', 'representation', 'headers-only'],
  count: ['exact', 'planned', 'estimated'],
  resolution: ['merge-duplicates', 'ignore-duplicates'],
  missing: ['default', 'null'],
  handling: ['strict', 'lenient'],
  tx: ['commit', 'rollback'],
  timezone: [],
  params: ['single-object'],
};

/**
 * `Prefer` is a comma list (supabase-js joins values with ", "); unknown entries are ignored
 * unless `handling=strict`, which PostgREST answers with PGRST122.
 */
export function parsePrefer(header: string | null): Result<Preferences> {
  const p: Preferences = {
    return: undefined,
    count: undefined,
    resolution: undefined,
    missingDefault: false,
    strict: false,
    maxAffected: undefined,
    tx: undefined,
    singleObject: false,
  };
  if (!header) return ok(p);
  const invalid: string[] = [];
  for (const raw of header.split(',')) {
    const entry = raw.trim();
    if (!entry) continue;
    const [key = '', value = ''] = entry.split('=', 2).map((s) => s.trim());
    if (key === 'max-affected' && /^\d+$/.test(value)) p.maxAffected = Number(value);
    else if (key === 'timezone' && value) continue;
    else if (!KNOWN[key]?.includes(value)) invalid.push(entry);
    else if (key === 'return') p.return = value as Preferences['return'];
    else if (key === 'count') p.count = value as Preferences['count'];
    else if (key === 'resolution') p.resolution = value as Preferences['resolution'];
    else if (key === 'missing') p.missingDefault = value === 'default';
    else if (key === 'handling') p.strict = value === 'strict';
    else if (key === 'tx') p.tx = value as Preferences['tx'];
    else if (key === 'params') p.singleObject = true;
  }
  if (p.strict && invalid.length) {
    return fail(
      apiError(
        400,
        'PGRST122',
        'Invalid preferences given with handling=strict',
        `Invalid preferences: ${invalid.join(', ')}`,
      ),
    );
  }
  return ok(p);
}

export type Representation =
  | { kind: 'json' | 'object' | 'csv'; stripNulls: boolean }
  /** `application/vnd.pgrst.plan+json|text`: the query's EXPLAIN instead of its rows. */
  | { kind: 'plan'; stripNulls: false; format: 'json' | 'text'; options: string[] };

const PLAN_OPTIONS = new Set(['analyze', 'verbose', 'settings', 'buffers', 'wal']);

/** `options=analyze|verbose` of a plan media type, only the options PostgREST knows. */
function planOptions(params: string[]): string[] {
  const raw = params.find((x) => x.startsWith('options='))?.slice('options='.length) ?? '';
  return raw
    .replace(/"/g, '')
    .split('|')
    .filter((o) => PLAN_OPTIONS.has(o));
}

/** What a client gets that states no preference: no `Accept`, or a browser's "any type". */
const ANY = ok<Representation>({ kind: 'json', stripNulls: false });

/** Picks the first acceptable media type of `Accept`, in the order listed. */
export function negotiate(accept: string | null): Result<Representation> {
  if (accept === null || accept === '*/*') return ANY;
  const offered = accept
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (!offered.length) offered.push('*/*');
  for (const entry of offered) {
    const [type = '', ...paramList] = entry.split(';').map((s) => s.trim().toLowerCase());
    const stripNulls = paramList.some((x) => x.replace(/\s/g, '') === 'nulls=stripped');
    switch (type) {
      case '*/*':
      case 'application/*':
      case 'application/json':
        return ok({ kind: 'json', stripNulls: false });
      case 'application/vnd.pgrst.array+json':
      case 'application/vnd.pgrst.array':
        return ok({ kind: 'json', stripNulls });
      case 'application/vnd.pgrst.object+json':
      case 'application/vnd.pgrst.object':
        return ok({ kind: 'object', stripNulls });
      case 'text/*':
      case 'text/csv':
        return ok({ kind: 'csv', stripNulls: false });
      case 'application/vnd.pgrst.plan':
      case 'application/vnd.pgrst.plan+text':
      case 'application/vnd.pgrst.plan+json': {
        const format = type.endsWith('+json') ? 'json' : 'text';
        return ok({ kind: 'plan', stripNulls: false, format, options: planOptions(paramList) });
      }
    }
  }
  return fail(
    apiError(406, 'PGRST107', `None of these media types are available: ${offered.join(', ')}`),
  );
}

/**
 * The schema a request works in: its profile when exposed, the first exposed one without a
 * profile; any other profile gets PostgREST's 406 PGRST106.
 */
export function checkProfile(profile: string | null, exposed: readonly string[]): Result<string> {
  if (profile === null) return ok(exposed[0] ?? 'public');
  if (exposed.includes(profile)) return ok(profile);
  return fail(
    apiError(
      406,
      'PGRST106',
      `Invalid schema: ${profile}`,
      null,
      `Only the following schemas are exposed: ${exposed.join(', ')}`,
    ),
  );
}

/** `Range: 0-9` (rows) as an offset and an optional limit. */
export function parseRange(
  header: string | null,
): { offset: number; limit: number | undefined } | undefined {
  const m = header && /^\s*(?:items=)?(\d+)-(\d*)\s*$/.exec(header);
  if (!m) return undefined;
  const from = Number(m[1]);
  const to = m[2] ? Number(m[2]) : undefined;
  if (to !== undefined && to < from) return undefined;
  return { offset: from, limit: to === undefined ? undefined : to - from + 1 };
}
