import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { PlatformContext } from '../context.ts';
import type { AuthDeps } from './deps.ts';
import { AuthApiError, authError, errorResponse, unexpectedResponse } from './errors.ts';
import { createAddressGate, createRateLimiter } from './rate-limit.ts';
import {
  adminCreateUser,
  adminDeleteUser,
  adminGenerateLink,
  adminGetUser,
  adminListUsers,
  adminUpdateUser,
} from './routes/admin.ts';
import { logout } from './routes/logout.ts';
import { recover, resend } from './routes/mail-requests.ts';
import { signup } from './routes/signup.ts';
import { token } from './routes/token.ts';
import { getUser, updateUser } from './routes/user.ts';
import { verifyGet, verifyPost } from './routes/verify.ts';

/** GoTrue's own cap on request bodies is the gateway's; 1 MiB is far above any auth payload. */
const MAX_BODY_BYTES = 1024 * 1024;

type Handler = (c: Context, deps: AuthDeps) => Promise<Response>;

/**
 * The GoTrue-compatible auth service, mounted at /auth/v1. One route table; handlers validate
 * their input and throw `AuthApiError`s, which `onError` alone turns into GoTrue's error bodies.
 */
export function createAuthApp(ctx: PlatformContext): Hono {
  const deps: AuthDeps = {
    ctx,
    limiter: createRateLimiter(() => (ctx.config.rateLimit ? ctx.config.rateLimits : undefined)),
    recoveryGate: createAddressGate(() => ctx.config.rateLimit, ctx.config.maxFrequencySeconds),
  };
  const app = new Hono();
  const h = (handler: Handler) => (c: Context) => handler(c, deps);

  app.onError((err, c) => {
    if (err instanceof AuthApiError) return errorResponse(c, err);
    ctx.log.error({ msg: 'auth: unexpected error', path: c.req.path, error: String(err) });
    return unexpectedResponse(c);
  });

  // The Supabase gateway (Kong) rejects requests without a project key before GoTrue sees them;
  // the e-mail link (opened by a browser) and the public keys are open.
  app.use('*', async (c, next) => {
    const open = c.req.path.endsWith('/verify') || c.req.path.endsWith('/.well-known/jwks.json');
    if (c.req.method === 'GET' && open) return next();
    const key = c.req.header('apikey') ?? c.req.query('apikey');
    if (!key) return c.json({ message: 'No API key found in request' }, 401);
    if (!Object.values(ctx.keys).includes(key)) return c.json({ message: 'Invalid API key' }, 401);
    return next();
  });
  app.use('*', async (c, next) => {
    if (/%00/.test(c.req.url)) {
      throw authError(400, 'validation_failed', 'Query parameters must not contain NUL');
    }
    await next();
  });
  app.use(
    '*',
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      // The unread rest of the body is abandoned, so the connection cannot be reused.
      onError: (c) => {
        c.header('Connection', 'close');
        return errorResponse(c, authError(413, 'validation_failed', 'Request body too large'));
      },
    }),
  );

  app.get('/health', (c) =>
    c.json({
      version: 'v2.196.0',
      name: 'GoTrue',
      description: 'GoTrue is a user registration and authentication API',
    }),
  );
  app.get('/settings', (c) =>
    c.json({
      external: { anonymous_users: false, email: true, phone: false },
      disable_signup: false,
      mailer_autoconfirm: ctx.config.autoconfirm,
      phone_autoconfirm: false,
      sms_provider: '',
      saml_enabled: false,
    }),
  );
  // Tokens are HS256 with the project secret: no public keys to publish, as GoTrue answers then.
  app.get('/.well-known/jwks.json', (c) => c.json(ctx.keyring.jwks));
  app.post('/signup', h(signup));
  app.post('/token', h(token));
  app.get('/user', h(getUser));
  app.put('/user', h(updateUser));
  app.post('/logout', h(logout));
  app.post('/recover', h(recover));
  app.post('/resend', h(resend));
  app.get('/verify', h(verifyGet));
  app.post('/verify', h(verifyPost));
  app.post('/admin/users', h(adminCreateUser));
  app.get('/admin/users', h(adminListUsers));
  app.get('/admin/users/:id', h(adminGetUser));
  app.put('/admin/users/:id', h(adminUpdateUser));
  app.delete('/admin/users/:id', h(adminDeleteUser));
  app.post('/admin/generate_link', h(adminGenerateLink));
  return app;
}
