import { Hono } from 'hono';
import type { PlatformContext } from '../context.ts';

export function createStorageApp(_ctx: PlatformContext): Hono {
  return new Hono();
}
