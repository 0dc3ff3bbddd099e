/** Which requests a fault applies to, by URL. */
export type Match = (url: string) => boolean;

/** Faults drawn per request while a storm runs (chaos.ts); `random` is the storm's seeded draw. */
export type RandomFaults = {
  random: () => number;
  /** Share of requests the server processes but whose reply never arrives. */
  lost: number;
  /** Share of requests that die on the way, before reaching the server. */
  cut: number;
  /** Each request waits up to this long before it is sent. */
  maxLatencyMs: number;
};

const dead = () => new TypeError('fetch failed');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A device's connection as the test controls it. Every HTTP request of the device's supabase-js
 * client goes through `fetch` here, on to the real server; the faults make it fail the way a
 * dead connection fails (`TypeError: fetch failed`, as undici and browsers say):
 * - `online = false`: every request fails (the engine is not told; `Device.offline()` tells it);
 * - `cutNext(match)`: the next matching request dies before the server sees it;
 * - `loseNextReply(match)`: the server processes the next matching request, its reply is lost;
 * - `block(match)`: matching requests fail until `block(null)`;
 * - `hold(match)`: matching requests wait unanswered until `hold(null)`, then go on;
 * - `latency(ms)`: every request waits before it is sent;
 * - `afterNextReply(match, run)`: runs `run` (a server restart) before a reply is returned.
 */
export class Network {
  online = true;
  private lose: { match: Match; then: () => void } | null = null;
  private cutting: Match | null = null;
  private blocked: Match | null = null;
  private onBlocked: () => void = () => undefined;
  private held: Match | null = null;
  private onHeld: () => void = () => undefined;
  private released: Promise<void> = Promise.resolve();
  private release: () => void = () => undefined;
  private hook: { match: Match; run: () => Promise<void> } | null = null;
  private delayMs = 0;
  /** Set while a storm runs (chaos.ts). */
  faults: RandomFaults | null = null;
  /** Every request the device sent while online: `METHOD url`. */
  readonly requests: string[] = [];
  /** Those of them, but auth's own, that carried the anon key as their bearer: sent as nobody. */
  readonly asAnon: string[] = [];
  /** URLs of requests the server processed but whose reply was lost. */
  readonly lost: string[] = [];
  /** URLs of requests cut before they reached the server. */
  readonly cut: string[] = [];

  constructor(private readonly anonKey: string) {}

  /**
   * Requests matching `match` fail like a dead connection until `block(null)`; resolves when
   * the first one was attempted.
   */
  block(match: Match | null): Promise<void> {
    this.blocked = match;
    return new Promise((resolve) => (this.onBlocked = resolve));
  }

  /**
   * Requests matching `match` wait, like requests on a link that has not answered yet, until
   * `hold(null)` sends them on; resolves when the first one was attempted.
   */
  hold(match: Match | null): Promise<void> {
    this.held = match;
    if (!match) {
      this.release();
      return Promise.resolve();
    }
    this.released = new Promise((resolve) => (this.release = resolve));
    return new Promise((resolve) => (this.onHeld = resolve));
  }

  /** `then` runs once the reply is thrown away, before the request fails (e.g. go offline). */
  loseNextReply(match: Match, then: () => void = () => undefined): void {
    this.lose = { match, then };
  }

  cutNext(match: Match): void {
    this.cutting = match;
  }

  latency(ms: number): void {
    this.delayMs = ms;
  }

  /** Runs `run` (e.g. a server restart) after the first matching reply, before it is returned. */
  afterNextReply(match: Match, run: () => Promise<void>): void {
    this.hook = { match, run };
  }

  readonly fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = input instanceof Request ? input.url : String(input);
    const faults = this.faults;
    const wait = this.delayMs + (faults ? faults.random() * faults.maxLatencyMs : 0);
    if (wait > 0) await sleep(wait);
    if (this.held?.(url)) {
      this.onHeld();
      await this.released;
    }
    if (!this.online) throw dead();
    if (this.blocked?.(url)) {
      this.onBlocked();
      throw dead();
    }
    if (this.cutting?.(url) || (faults && faults.random() < faults.cut)) {
      this.cutting = null;
      this.cut.push(url);
      throw dead();
    }
    const request = `${init?.method ?? 'GET'} ${url}`;
    this.requests.push(request);
    const bearer = new Headers(init?.headers).get('Authorization');
    if (bearer === `Bearer ${this.anonKey}` && !url.includes('/auth/v1/'))
      this.asAnon.push(request);
    const response = await fetch(input, init);
    const lose = this.lose?.match(url) ? this.lose : null;
    if (lose || (faults && faults.random() < faults.lost)) {
      if (lose) this.lose = null;
      await response.arrayBuffer();
      this.lost.push(url);
      lose?.then();
      throw dead();
    }
    const hook = this.hook;
    if (hook?.match(url)) {
      this.hook = null;
      await hook.run();
    }
    return response;
  };
}
