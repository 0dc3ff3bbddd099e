import type { PlatformConfig } from './config.ts';
import type { Database } from './db/index.ts';
import type { ApiKeys } from './api-keys.ts';
import type { JwtKeyring } from './jwt.ts';
import type { Logger } from './log.ts';
import type { Mailer } from './mailbox/mailer.ts';

/** Everything a service of the local platform may use; built once in server.ts. */
export type PlatformContext = {
  config: PlatformConfig;
  db: Database;
  keys: ApiKeys;
  /** The keys every service verifies tokens with (jwt.ts). */
  keyring: JwtKeyring;
  mailer: Mailer;
  log: Logger;
};
