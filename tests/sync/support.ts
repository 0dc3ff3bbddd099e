import { randomUUID } from 'node:crypto';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { BehaviorSubject, Subject, filter, firstValueFrom, type Observable } from 'rxjs';
import { Temporal } from 'temporal-polyfill';
import WebSocket from 'ws';
import {
  createSyncEngine,
  type SyncEngine,
  type SyncEngineOptions,
  type SyncUser,
} from '../../sync/index.ts';
import { createLogger } from '../../supabase/local/log.ts';
import { createPlatform } from '../../supabase/local/server.ts';
import { startTestPlatform, type TestPlatform } from '../support/platform.ts';

export const ZONE = 'America/Sao_Paulo';
export const PASSWORD = 'senha-segura-123';
/** Seed doctor "Dra. Ana Ribeiro" (no auth user), 30-minute grid on weekdays 08–12 and 14–18. */
export const ANA = 'a0000000-0000-4000-8000-000000000001';

export function startSyncPlatform(): Promise<TestPlatform> {
  return startTestPlatform({ seedFile: 'supabase/seed.sql' });
}

/**
 * The device's network as the test controls it: `online=false` makes every request fail the
 * way a dead connection does; `loseNextReply(match)` lets the server process one request and
 * then throws its reply away — the connection dropped between the RPC and its answer.
 */
export class Network {
  online = true;
  private lose: { match: (url: string) => boolean; then: () => void } | null = null;
  private blocked: ((url: string) => boolean) | null = null;
  private onBlocked: () => void = () => undefined;
  private hook: { match: (url: string) => boolean; run: () => Promise<void> } | null = null;
  /** Every request the device sent while online: `METHOD url`. */
  readonly requests: string[] = [];
  /** Those of them, but auth's own, that carried the anon key as their bearer: sent as nobody. */
  readonly asAnon: string[] = [];
  /** URLs of requests the server processed but whose reply was lost. */
  readonly lost: string[] = [];

  constructor(private readonly anonKey: string) {}

  /**
   * Requests matching `match` fail like a dead connection until `block(null)`; resolves when
   * the first one was attempted.
   */
  block(match: ((url: string) => boolean) | null): Promise<void> {
    this.blocked = match;
    return new Promise((resolve) => (this.onBlocked = resolve));
  }

  /** `then` runs once the reply is thrown away, before the request fails (e.g. go offline). */
  loseNextReply(match: (url: string) => boolean, then: () => void = () => undefined): void {
    this.lose = { match, then };
  }

  /** Runs `run` (e.g. a server restart) after the first matching reply, before it is returned. */
  afterNextReply(match: (url: string) => boolean, run: () => Promise<void>): void {
    this.hook = { match, run };
  }

  readonly fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = input instanceof Request ? input.url : String(input);
    if (!this.online) throw new TypeError('fetch failed');
    if (this.blocked?.(url)) {
      this.onBlocked();
      throw new TypeError('fetch failed');
    }
    const request = `${init?.method ?? 'GET'} ${url}`;
    this.requests.push(request);
    const bearer = new Headers(init?.headers).get('Authorization');
    if (bearer === `Bearer ${this.anonKey}` && !url.includes('/auth/v1/'))
      this.asAnon.push(request);
    const response = await fetch(input, init);
    const lose = this.lose;
    if (lose?.match(url)) {
      this.lose = null;
      await response.arrayBuffer();
      this.lost.push(url);
      lose.then();
      throw new TypeError('fetch failed');
    }
    const hook = this.hook;
    if (hook?.match(url)) {
      this.hook = null;
      await hook.run();
    }
    return response;
  };
}

/** Sessions live in memory per device, so several people act in one test. */
function memoryStorage() {
  const items = new Map<string, string>();
  return {
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => void items.set(k, v),
    removeItem: (k: string) => void items.delete(k),
    keys: () => [...items.keys()],
  };
}

/** One phone or laptop: its own network, IndexedDB, supabase-js client and sync engine. */
export class Device {
  readonly net: Network;
  readonly online$ = new BehaviorSubject(true);
  readonly focus$ = new Subject<void>();
  readonly indexedDB = new IDBFactory();
  private readonly authStorage = memoryStorage();
  readonly client: SupabaseClient;
  engine: SyncEngine | null = null;

  /** `t`: the platform, in this process or (benchmarks) another one; only its address is used. */
  constructor(readonly t: Pick<TestPlatform, 'url' | 'anonKey'>) {
    this.net = new Network(t.anonKey);
    this.client = createClient<unknown>(t.url, t.anonKey, {
      auth: {
        storage: this.authStorage,
        autoRefreshToken: false,
        persistSession: true,
        detectSessionInUrl: false,
      },
      global: { fetch: this.net.fetch },
      realtime: { transport: WebSocket as unknown as typeof globalThis.WebSocket },
    });
  }

  /** Makes the stored session look expired, as after a night with the laptop closed. */
  expireSession(): void {
    for (const key of this.authStorage.keys()) {
      const session = JSON.parse(this.authStorage.getItem(key) ?? 'null') as {
        expires_at?: number;
      } | null;
      if (session?.expires_at === undefined) continue;
      session.expires_at = Math.floor(Date.now() / 1000) - 60;
      this.authStorage.setItem(key, JSON.stringify(session));
    }
  }

  hasStoredSession(): boolean {
    return this.authStorage
      .keys()
      .some((k) => this.authStorage.getItem(k)?.includes('refresh_token'));
  }

  async signIn(email: string): Promise<string> {
    const { data, error } = await this.client.auth.signInWithPassword({
      email,
      password: PASSWORD,
    });
    if (error) throw error;
    return data.user.id;
  }

  async start(user: SyncUser | null, extra: Partial<SyncEngineOptions> = {}): Promise<SyncEngine> {
    this.engine = await createSyncEngine({
      supabase: this.client,
      serverUrl: this.t.url,
      user,
      indexedDB: { factory: this.indexedDB, keyRange: IDBKeyRange },
      online$: this.online$,
      focus$: this.focus$,
      backoff: { baseMs: 25, maxMs: 400 },
      retryTimeMs: 100,
      ...extra,
    });
    return this.engine;
  }

  get sync(): SyncEngine {
    if (!this.engine) throw new Error('engine not started');
    return this.engine;
  }

  /** The connection dies: requests fail, the Realtime socket closes, the engine is told. */
  offline(): void {
    this.net.online = false;
    void this.client.realtime.disconnect();
    this.online$.next(false);
  }

  online(): void {
    this.net.online = true;
    this.client.realtime.connect();
    this.online$.next(true);
  }

  async stop(): Promise<void> {
    await this.engine?.close();
    this.engine = null;
    await this.client.removeAllChannels();
  }
}

/** Resolves with the first value matching `pred` (the test's own timeout bounds the wait). */
export function until<T>(obs$: Observable<T>, pred: (value: T) => boolean): Promise<T> {
  return firstValueFrom(obs$.pipe(filter(pred)));
}

async function createUser(
  t: TestPlatform,
  opts: { userMeta: Record<string, unknown>; appMeta?: Record<string, unknown> },
): Promise<{ id: string; email: string }> {
  const email = `u-${randomUUID().slice(0, 8)}@test.example`;
  const { data, error } = await t.admin.auth.admin.createUser({
    email,
    password: PASSWORD,
    email_confirm: true,
    user_metadata: opts.userMeta,
    app_metadata: opts.appMeta,
  });
  if (error) throw error;
  return { id: data.user.id, email };
}

/** Valid CPFs (check digits computed), distinct per n. */
export function cpfFor(n: number): string {
  const base = String(100000000 + n * 7919).slice(-9);
  const digits = base.split('').map(Number);
  const check = (ds: number[]) => {
    const sum = ds.reduce((s, d, i) => s + d * (ds.length + 1 - i), 0);
    const r = (sum * 10) % 11;
    return r === 10 ? 0 : r;
  };
  const d1 = check(digits);
  return `${base}${d1}${check([...digits, d1])}`;
}

/** Every test file has a database of its own, so a counter keeps CPFs unique. */
let patients = 0;

export async function createPatient(t: TestPlatform): Promise<{ id: string; email: string }> {
  patients += 1;
  const n = patients;
  return createUser(t, {
    userMeta: {
      full_name: `Paciente ${n}`,
      cpf: cpfFor(n),
      data_nasc: '1990-05-10',
      whatsapp: '(11) 91234-5678',
    },
  });
}

export type DoctorFixture = { id: string; email: string; medicoId: string };

type Block = {
  dia_semana: number;
  hora_inicio: string;
  hora_fim: string;
  intervalo_em_minutos: number;
};

const ALL_DAY: Block[] = [0, 1, 2, 3, 4, 5, 6].map((dia_semana) => ({
  dia_semana,
  hora_inicio: '00:00',
  hora_fim: '24:00',
  intervalo_em_minutos: 30,
}));

/** A public, active doctor linked to a user; by default available all day every day, 30-min grid. */
export async function createDoctor(
  t: TestPlatform,
  opts: { name?: string; blocks?: Block[] } = {},
): Promise<DoctorFixture> {
  const name = opts.name ?? 'Dra. Teste';
  const user = await createUser(t, { userMeta: { full_name: name }, appMeta: { role: 'medico' } });
  const { data, error } = await t.admin
    .from('medicos')
    .insert({
      user_id: user.id,
      name,
      public_name: name,
      specialty: 'Clínica Geral',
      crm: '123456',
      uf: 'SP',
      price_in_cents: 15000,
      is_public: true,
      is_active: true,
    })
    .select('id')
    .single();
  if (error) throw error;
  const medicoId = data.id as string;
  const blocks = (opts.blocks ?? ALL_DAY).map((b) => ({ ...b, medico_id: medicoId }));
  const inserted = await t.admin.from('agenda_medico').insert(blocks);
  if (inserted.error) throw inserted.error;
  return { ...user, medicoId };
}

/** The n-th 30-minute slot from tomorrow 08:00 in São Paulo, as an ISO instant. */
export function slot(n: number): string {
  return Temporal.Now.zonedDateTimeISO(ZONE)
    .toPlainDate()
    .add({ days: 1 })
    .toZonedDateTime({ timeZone: ZONE, plainTime: Temporal.PlainTime.from('08:00') })
    .add({ minutes: n * 30 })
    .toInstant()
    .toString();
}

/**
 * `count` confirmed appointments of `doctor` in consecutive 30-minute slots from `slot(0)`,
 * spread over `patients`; inserted in SQL (bypassing the booking RPC) so that tests and
 * benchmarks of the sync get many rows fast.
 */
export async function seedAppointments(
  t: TestPlatform,
  doctor: { medicoId: string },
  patients: readonly { id: string }[],
  count: number,
): Promise<void> {
  await t.platform.ctx.db.query(
    `insert into public.agendamentos (patient_id, medico_id, servico_id, appointment_date,
       appointment_time, horario_inicio, horario_fim, price_in_cents, mutation_id)
     select ($1::uuid[])[1 + i % array_length($1::uuid[], 1)], $2,
            (select id from public.servicos where nome = 'Teleconsulta'),
            ((s + i * interval '30 minutes') at time zone 'America/Sao_Paulo')::date,
            ((s + i * interval '30 minutes') at time zone 'America/Sao_Paulo')::time,
            s + i * interval '30 minutes', s + (i + 1) * interval '30 minutes', 15000,
            gen_random_uuid()
     from generate_series(0, $3::int - 1) i, (select $4::timestamptz as s) start`,
    [patients.map((p) => p.id), doctor.medicoId, count, slot(0)],
  );
}

/** A plain supabase-js client signed in as `user` (no replica), for acting on the server. */
export async function signedInClient(
  t: TestPlatform,
  user: { email: string },
): Promise<SupabaseClient> {
  const client = t.client();
  const { error } = await client.auth.signInWithPassword({ email: user.email, password: PASSWORD });
  if (error) throw error;
  return client;
}

/**
 * A platform that can be stopped and started again on the same port over the same database,
 * like a server process restarting (the database is the caller's, so close() keeps it).
 */
export async function startRestartablePlatform(): Promise<
  TestPlatform & { restart(): Promise<void> }
> {
  const first = await startSyncPlatform();
  const port = Number(new URL(first.url).port);
  let platform = first.platform;
  const restart = async () => {
    await platform.close();
    platform = await createPlatform(platform.ctx.config, {
      db: platform.ctx.db,
      log: createLogger('silent'),
    });
    await platform.listen(port);
  };
  return {
    ...first,
    get platform() {
      return platform;
    },
    restart,
    async stop() {
      // The first platform object owns the database's disposal; close the live one first.
      if (platform !== first.platform) await platform.close();
      await first.stop();
    },
  };
}

/** The rows of a service-role query, typed by the caller (supabase-js is untyped here). */
export async function rows<T>(query: PromiseLike<{ data: unknown; error: unknown }>): Promise<T[]> {
  const { data, error } = await query;
  if (error) throw error as Error;
  return data as T[];
}
