import type { OutgoingMail, StoredMail } from './mailer.ts';

const URL_IN_TEXT = /https?:\/\/[^\s"'<>]+/g;
const HREF = /href\s*=\s*"([^"]+)"/gi;

const unescapeHtml = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

export const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Every distinct link of a mail, hrefs first (they are what a reader clicks). */
export function extractLinks(mail: OutgoingMail): string[] {
  const fromHtml = [...mail.html.matchAll(HREF)].map((m) => unescapeHtml(m[1] ?? ''));
  const fromText = mail.text.match(URL_IN_TEXT) ?? [];
  return [...new Set([...fromHtml, ...fromText])].filter((l) => /^https?:\/\//.test(l));
}

/** A plain page for people: newest first, each mail with its text and clickable links. */
export function renderMailboxPage(mails: StoredMail[]): string {
  const items = mails
    .map(
      (m) => `<article>
  <h2>${escapeHtml(m.subject)}</h2>
  <p class="meta">Para: ${escapeHtml(m.to)} · ${escapeHtml(m.created_at)}</p>
  <pre>${escapeHtml(m.text)}</pre>
  <ul>${m.links.map((l) => `<li><a href="${escapeHtml(l)}">${escapeHtml(l)}</a></li>`).join('')}</ul>
</article>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="pt-BR">
<head><meta charset="utf-8"><title>Caixa de e-mails (desenvolvimento)</title>
<style>body{font-family:system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem}
article{border-bottom:1px solid #ddd;padding:1rem 0}.meta{color:#555}pre{white-space:pre-wrap}</style></head>
<body>
<h1>Caixa de e-mails (desenvolvimento)</h1>
${items || '<p>Nenhuma mensagem.</p>'}
</body>
</html>`;
}
