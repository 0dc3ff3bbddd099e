import type { HttpBindings } from '@hono/node-server';

/**
 * Hono's environment when @hono/node-server serves the app: Node's own request and response
 * objects, for the few hot paths that skip the Fetch API wrappers. Partial because in-process
 * calls (`app.request`) have none.
 */
export type NodeEnv = { Bindings: Partial<HttpBindings> };
