import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { PlatformContext } from '../context.ts';

export type Realtime = {
  /** Takes over an HTTP upgrade for `/realtime/v1/websocket`; false if the path is not ours. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean;
  close(): Promise<void>;
};

export function createRealtime(_ctx: PlatformContext): Promise<Realtime> {
  return Promise.resolve({ handleUpgrade: () => false, close: () => Promise.resolve() });
}
