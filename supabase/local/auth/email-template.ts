/**
 * The subset of Go's template syntax that GoTrue's e-mail templates (`supabase/templates/*.html`)
 * use here: `{{ .Name }}` substitutions, with `{{-`/`-}}` trim markers. Hosted Auth renders
 * the same files with Go's engine, so anything beyond this subset is refused when the
 * configuration is loaded instead of being sent half-rendered.
 */

/** GoTrue's variables for the confirmation, recovery and e-mail-change templates. */
export const TEMPLATE_VARIABLES = [
  'ConfirmationURL',
  'Token',
  'TokenHash',
  'SiteURL',
  'RedirectTo',
  'Email',
  'NewEmail',
] as const;
export type TemplateVariable = (typeof TEMPLATE_VARIABLES)[number];
export type TemplateValues = Record<TemplateVariable, string>;

const ACTION = /(\s*)\{\{(-?)\s*([^}]*?)\s*(-?)\}\}(\s*)/g;
const SUBSTITUTION = /^\.([A-Za-z]+)$/;

const isVariable = (name: string): name is TemplateVariable =>
  (TEMPLATE_VARIABLES as readonly string[]).includes(name);

/** The first action the local renderer cannot render, or undefined when it renders them all. */
export function unsupportedAction(source: string): string | undefined {
  for (const m of source.matchAll(ACTION)) {
    const name = SUBSTITUTION.exec(m[3] ?? '')?.[1];
    if (!name || !isVariable(name)) return `{{ ${m[3] ?? ''} }}`;
  }
  if (/\{\{|\}\}/.test(source.replace(ACTION, ''))) return 'an unclosed {{';
  return undefined;
}

const escapeHtml = (s: string) =>
  s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');

/** Renders a template that passed `unsupportedAction`; values are HTML-escaped. */
export function renderTemplate(source: string, values: TemplateValues): string {
  return source.replace(
    ACTION,
    (_all, before: string, trimLeft, expr: string, trimRight, after: string) => {
      const name = SUBSTITUTION.exec(expr)?.[1] ?? '';
      const value = isVariable(name) ? escapeHtml(values[name]) : '';
      return `${trimLeft ? '' : before}${value}${trimRight ? '' : after}`;
    },
  );
}

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  '#39': "'",
  nbsp: ' ',
};

/** The plain-text part of a rendered HTML e-mail: paragraphs kept, links written out. */
export function htmlToText(html: string): string {
  return html
    .replace(/<a\b[^>]*?href\s*=\s*"([^"]*)"[^>]*>([\s\S]*?)<\/a>/gi, '$2: $1')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|h[1-6]|div|li|tr|table)>/gi, '\n\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_m, e: string) => ENTITIES[e] ?? '')
    .split('\n')
    .map((line) => line.replace(/[ \t]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
    .concat('\n');
}
