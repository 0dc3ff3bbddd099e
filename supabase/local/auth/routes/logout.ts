import type { Context } from 'hono';
import * as v from 'valibot';
import type { AuthDeps } from '../deps.ts';
import { authError } from '../errors.ts';
import { requireUser } from '../guard.ts';

const Scope = v.picklist(['global', 'local', 'others']);

/**
 * POST /logout?scope=global|local|others (204). Sessions are deleted, and their refresh tokens
 * with them, so a later refresh of any of them fails.
 */
export async function logout(c: Context, { ctx }: AuthDeps): Promise<Response> {
  const { user, sessionId } = await requireUser(c, ctx);
  const scope = c.req.query('scope') ?? 'global';
  if (!v.is(Scope, scope))
    throw authError(400, 'validation_failed', `Unsupported logout scope "${scope}"`);
  if (scope === 'global') {
    await ctx.db.query('delete from auth.sessions where user_id = $1', [user.id]);
  } else if (sessionId !== undefined) {
    const which = scope === 'local' ? 'id = $2::uuid' : 'id <> $2::uuid';
    await ctx.db.query(`delete from auth.sessions where user_id = $1 and ${which}`, [
      user.id,
      sessionId,
    ]);
  }
  return c.body(null, 204);
}
