import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Hono } from 'hono';
import { WebSocketServer, type WebSocket } from 'ws';
import type { PlatformContext } from '../context.ts';
import { verifyJwt } from '../jwt.ts';
import { gatewayToken } from '../request-auth.ts';
import { createBroadcastApi } from './api.ts';
import { startChangeFeed } from './change-feed.ts';
import { createHub } from './hub.ts';
import type { Vsn } from './protocol.ts';
import { openSession } from './session.ts';

export type Realtime = {
  /** Takes over an HTTP upgrade for `/realtime/v1/websocket`; false if the path is not ours. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean;
  /** HTTP routes under `/realtime/v1` (broadcast over REST). */
  api: Hono;
  /** A write has committed: deliver its changes now (change-feed.ts, `wake`). */
  changesCommitted(): void;
  close(): Promise<void>;
};

const PATH = '/realtime/v1/websocket';
/** Bigger frames close that one socket (ws answers 1009); nobody else notices. */
const MAX_FRAME_BYTES = 1024 * 1024;
const CLOSE_GRACE_MS = 1000;

/**
 * The Realtime service: Phoenix channels over WebSocket with postgres_changes fed by the
 * capture triggers of realtime/schema.sql, plus broadcast and presence between clients.
 */
export async function createRealtime(ctx: PlatformContext): Promise<Realtime> {
  const feed = await startChangeFeed(ctx.db, ctx.log);
  const hub = createHub();
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  const sockets = new Set<WebSocket>();
  const pendingUpgrades = new Set<Duplex>();
  let closing = false;
  let closed: Promise<void> | undefined;

  /** Closes every socket (1001, then a hard stop after a grace period) and stops LISTEN. */
  async function shutdown(): Promise<void> {
    closing = true;
    for (const socket of pendingUpgrades) socket.destroy();
    await Promise.all(
      [...sockets].map(
        (ws) =>
          new Promise<void>((resolve) => {
            if (ws.readyState === ws.CLOSED) return resolve();
            const force = setTimeout(() => ws.terminate(), CLOSE_GRACE_MS);
            ws.once('close', () => {
              clearTimeout(force);
              resolve();
            });
            ws.close(1001, 'server shutting down');
          }),
      ),
    );
    await new Promise<void>((resolve) => wss.close(() => resolve()));
    await feed.close();
  }

  function reject(socket: Duplex, status: string): void {
    socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    socket.destroy();
  }

  /**
   * Like the real server's UserSocket.connect: the `apikey` query parameter (or `x-api-key`
   * header) must be a JWT signed with the project secret, else the upgrade is refused with 403.
   */
  async function accept(
    req: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    url: URL,
  ): Promise<void> {
    const vsnParam = url.searchParams.get('vsn') ?? '1.0.0';
    const headerKey = req.headers['x-api-key'];
    const apikey =
      (typeof headerKey === 'string' ? headerKey : undefined) ?? url.searchParams.get('apikey');
    if (vsnParam !== '1.0.0' && vsnParam !== '2.0.0') return reject(socket, '403 Forbidden');
    // An opaque key stands for its role's legacy JWT, as the gateway hands it on.
    const passed = apikey ? gatewayToken({ apikey }, ctx.keys) : undefined;
    if (!passed?.ok || !(await verifyJwt(passed.token, ctx.keyring)).ok)
      return reject(socket, '403 Forbidden');
    const connectToken = passed.token;
    if (closing || socket.destroyed) return reject(socket, '503 Service Unavailable');
    const vsn: Vsn = vsnParam;
    wss.handleUpgrade(req, socket, head, (ws) => {
      sockets.add(ws);
      ws.on('close', () => sockets.delete(ws));
      openSession(ws, vsn, connectToken, {
        db: ctx.db,
        keyring: ctx.keyring,
        feed,
        hub,
        log: ctx.log,
      });
    });
  }

  return {
    api: createBroadcastApi(hub, ctx, ctx.db),
    changesCommitted: () => feed.wake(),

    handleUpgrade(req, socket, head) {
      const url = new URL(req.url ?? '/', 'http://localhost');
      if (url.pathname !== PATH) return false;
      socket.on('error', () => {});
      pendingUpgrades.add(socket);
      accept(req, socket, head, url)
        .catch((e: unknown) => {
          ctx.log.error({ msg: 'realtime: upgrade failed', error: String(e) });
          reject(socket, '500 Internal Server Error');
        })
        .finally(() => pendingUpgrades.delete(socket));
      return true;
    },

    close() {
      closed ??= shutdown();
      return closed;
    },
  };
}
