import { Hono } from 'hono';
import type { Database } from '../db/index.ts';
import type { Logger } from '../log.ts';
import type { Mailer } from './mailer.ts';

export function createMailbox(_db: Database, _log: Logger): { mailer: Mailer; app: Hono } {
  return {
    mailer: {
      send: () => Promise.reject(new Error('mailbox not implemented')),
    },
    app: new Hono(),
  };
}
