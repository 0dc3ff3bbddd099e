import type { PlatformConfig } from './config.ts';
import type { Database } from './db/index.ts';
import type { ApiKeys } from './jwt.ts';
import type { Logger } from './log.ts';
import type { Mailer } from './mailbox/mailer.ts';

/** Everything a service of the local platform may use; built once in server.ts. */
export type PlatformContext = {
  config: PlatformConfig;
  db: Database;
  keys: ApiKeys;
  mailer: Mailer;
  log: Logger;
};
