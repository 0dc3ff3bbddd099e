import { Hono, type Context } from 'hono';
import * as v from 'valibot';
import type { Database } from '../db/index.ts';
import type { ApiKeys } from '../api-keys.ts';
import type { Logger } from '../log.ts';
import type { Mailer, OutgoingMail, StoredMail } from './mailer.ts';
import { extractLinks, MAILBOX_PAGE } from './render.ts';
import { createSmtpMailer } from './smtp.ts';

/** The table lives in auth/schema.sql, so it exists before the first mail (see there). */
const COLUMNS = `id::text, "to", subject, text, html, links,
                 to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created_at`;

// Postgres text cannot hold U+0000: refuse it as invalid input instead of failing the INSERT.
const text = (max: number) =>
  v.pipe(
    v.string(),
    v.maxLength(max),
    v.check((s) => !s.includes('\u0000'), 'must not contain NUL characters'),
  );

const SendBody = v.object({
  to: v.pipe(text(320), v.trim(), v.email('to must be an e-mail address')),
  subject: text(998),
  text: text(1_000_000),
  html: v.optional(text(1_000_000), ''),
});

const ListQuery = v.object({ to: v.optional(text(320)) });

type MailboxError = { status: 400 | 401 | 403 | 404; code: string; message: string };
const fail = (c: Context, e: MailboxError) =>
  c.json({ code: e.code, message: e.message }, e.status);

export type MailboxOptions = {
  /** Whether the pages (`/mailbox`, `/mailbox/api`) are served (config.ts `mailboxOpen`). */
  open: boolean;
  /** Real delivery instead of the dev mailbox. */
  smtp?: { url: string; from: string } | undefined;
};

/**
 * The dev mailbox, like the Supabase CLI's Inbucket: every mail the platform sends lands here,
 * listed at /mailbox (HTML) and /mailbox/api (JSON, newest first). It holds password-reset
 * links, so it is a development tool only: every route needs the service-role key, answers
 * no other origin (no CORS, a foreign `Origin` is refused), and the pages exist only while
 * `open`. `POST /mailbox/api/send` is the edge functions' mail port (service-role key too).
 * With `smtp`, mail goes out through SMTP instead and the mailbox stays empty.
 */
export function createMailbox(
  db: Database,
  log: Logger,
  keys: ApiKeys | undefined,
  opts: MailboxOptions,
): { mailer: Mailer; app: Hono } {
  const stored: Mailer = {
    async send(mail: OutgoingMail): Promise<StoredMail> {
      const links = extractLinks(mail);
      const { rows } = await db.query<StoredMail>(
        `insert into _local.mailbox ("to", subject, text, html, links) values ($1, $2, $3, $4, $5)
         returning ${COLUMNS}`,
        [mail.to, mail.subject, mail.text, mail.html, links],
      );
      const row = rows[0];
      if (!row) throw new Error('mailbox insert returned no row');
      log.info({ msg: 'mail sent to dev mailbox', to: mail.to, subject: mail.subject });
      return row;
    },
  };
  const mailer = opts.smtp ? createSmtpMailer(opts.smtp.url, opts.smtp.from, log) : stored;

  const list = async (to: string | undefined) =>
    (
      await db.query<StoredMail>(
        `select ${COLUMNS} from _local.mailbox where $1::text is null or lower("to") = lower($1) order by created_at desc, seq desc`,
        [to ?? null],
      )
    ).rows;

  const isServiceRole = (c: Context) => {
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header('Authorization') ?? '')?.[1];
    const key = bearer ?? c.req.header('apikey');
    return keys !== undefined && (key === keys.serviceRoleKey || key === keys.secretKey);
  };
  const serviceRoleRequired: MailboxError = {
    status: 403,
    code: 'not_admin',
    message: 'This endpoint requires the service_role key',
  };

  const off: MailboxError = {
    status: 404,
    code: 'mailbox_off',
    message:
      'The dev mailbox is off (MAILBOX=off, or the API listens beyond this machine); set SMTP_URL to send real mail',
  };

  const app = new Hono();
  app.use('*', async (c: Context, next) => {
    if (foreignOrigin(c)) {
      return fail(c, {
        status: 403,
        code: 'forbidden_origin',
        message: 'The dev mailbox answers only its own origin',
      });
    }
    await next();
    c.header('Cache-Control', 'no-store');
    c.header('X-Frame-Options', 'DENY');
    return undefined;
  });
  app.get('/', (c) => {
    if (!opts.open) return fail(c, off);
    c.header(
      'Content-Security-Policy',
      "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; form-action 'none'; frame-ancestors 'none'",
    );
    return c.html(MAILBOX_PAGE);
  });
  app.get('/api', async (c) => {
    if (!opts.open) return fail(c, off);
    if (!isServiceRole(c)) return fail(c, serviceRoleRequired);
    const q = v.safeParse(ListQuery, c.req.query());
    if (!q.success)
      return fail(c, { status: 400, code: 'validation_failed', message: q.issues[0].message });
    return c.json(await list(q.output.to || undefined));
  });
  app.delete('/api', async (c) => {
    if (!opts.open) return fail(c, off);
    if (!isServiceRole(c)) return fail(c, serviceRoleRequired);
    await db.query('delete from _local.mailbox');
    return c.body(null, 204);
  });
  app.post('/api/send', async (c) => {
    if (!isServiceRole(c)) return fail(c, serviceRoleRequired);
    let json: unknown;
    try {
      json = await c.req.json();
    } catch {
      return fail(c, {
        status: 400,
        code: 'bad_json',
        message: 'Could not parse request body as JSON',
      });
    }
    const body = v.safeParse(SendBody, json);
    if (!body.success) {
      const issue = body.issues[0];
      return fail(c, {
        status: 400,
        code: 'validation_failed',
        message: `${v.getDotPath(issue) ?? 'body'}: ${issue.message}`,
      });
    }
    return c.json(await mailer.send(body.output));
  });
  return { mailer, app };
}

/** A browser request sent by a page of another origin (same-origin GETs carry no `Origin`). */
function foreignOrigin(c: Context): boolean {
  const origin = c.req.header('origin');
  if (origin === undefined) return false;
  try {
    return new URL(origin).host !== c.req.header('host');
  } catch {
    return true;
  }
}
