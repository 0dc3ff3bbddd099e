import { Agent, request, type ClientRequest } from 'node:http';
import { afterAll, expect, it } from 'vitest';
import { startTestPlatform } from '../../sync/testing/platform.ts';

type Reply = Promise<number | null>;

/** Sends a request on `agent`; resolves with the status once the reply is read, or null. */
function send(agent: Agent | false, url: string, method = 'GET', headers = {}) {
  let req!: ClientRequest;
  const reply: Reply = new Promise((resolve) => {
    req = request(url, { agent, method, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? null));
    });
    req.on('error', () => resolve(null));
  });
  return { req, reply };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const agent = new Agent({ keepAlive: true, maxSockets: 1 });
afterAll(() => agent.destroy());

it('closes while a client keeps using a connection that was answering when the close began', async () => {
  const t = await startTestPlatform({ migrationsDir: 'tests/platform/sample-migrations' });
  const health = `${t.url}/health`;
  const first = send(agent, health);
  first.req.end();
  expect(await first.reply).toBe(200);

  // A request is still arriving on the kept-alive connection when the server stops listening.
  const inFlight = send(agent, `${t.url}/rest/v1/rpc/nothing`, 'POST', {
    apikey: t.anonKey,
    'content-type': 'application/json',
  });
  inFlight.req.write('{');
  let closed = false;
  const closing = t.platform.close().then(() => (closed = true));
  for (;;) {
    const probe = send(false, health);
    probe.req.end();
    if ((await probe.reply) === null) break;
    await pause(10);
  }
  inFlight.req.end('}');
  await inFlight.reply;

  // Its client goes on using the same connection, as supabase-js retrying a sync does.
  let requests = 0;
  while (!closed && requests < 300) {
    const next = send(agent, health);
    next.req.end();
    await next.reply;
    requests += 1;
    await pause(10);
  }

  expect(closed).toBe(true);
  await closing;
  await t.stop().catch(() => undefined);
});
