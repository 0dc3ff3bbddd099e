import * as v from 'valibot';

const EmailStateSchema = v.object({
  email: v.optional(v.nullable(v.string())),
  customMessage: v.optional(v.nullable(v.string())),
});

/** Navigation state is whatever history holds; read it defensively. */
export function readNavigationEmail(state: unknown): string | null {
  const parsed = v.safeParse(EmailStateSchema, state);
  return parsed.success && parsed.output.email ? parsed.output.email : null;
}

export function readCustomMessage(state: unknown): string | null {
  const parsed = v.safeParse(EmailStateSchema, state);
  return parsed.success && parsed.output.customMessage ? parsed.output.customMessage : null;
}

const FromSchema = v.object({
  from: v.object({
    pathname: v.pipe(v.string(), v.startsWith('/')),
    search: v.optional(v.string(), ''),
    hash: v.optional(v.string(), ''),
  }),
});

/** The page a guard sent the person away from, if it is a path inside this app. */
export function readOrigin(state: unknown): string | null {
  const parsed = v.safeParse(FromSchema, state);
  if (!parsed.success) return null;
  const { pathname, search, hash } = parsed.output.from;
  if (pathname.startsWith('//')) return null;
  return `${pathname}${search}${hash}`;
}
