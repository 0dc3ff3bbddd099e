import type { OutgoingMail } from './mailer.ts';

const URL_IN_TEXT = /https?:\/\/[^\s"'<>]+/g;
const HREF = /href\s*=\s*"([^"]+)"/gi;

const unescapeHtml = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** Every distinct link of a mail, hrefs first (they are what a reader clicks). */
export function extractLinks(mail: OutgoingMail): string[] {
  const fromHtml = [...mail.html.matchAll(HREF)].map((m) => unescapeHtml(m[1] ?? ''));
  const fromText = mail.text.match(URL_IN_TEXT) ?? [];
  return [...new Set([...fromHtml, ...fromText])].filter((l) => /^https?:\/\//.test(l));
}

/**
 * The mailbox page for people. It carries no mail: its script asks once for the service-role
 * key (kept in this origin's localStorage), reads `/mailbox/api` with it and renders each mail
 * with its text and clickable links, newest first.
 */
export const MAILBOX_PAGE = `<!doctype html>
<html lang="pt-BR">
<head><meta charset="utf-8"><title>Caixa de e-mails (desenvolvimento)</title>
<style>body{font-family:system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem}
article{border-bottom:1px solid #ddd;padding:1rem 0}.meta{color:#555}pre{white-space:pre-wrap}pre,a{overflow-wrap:anywhere}
input{width:100%;box-sizing:border-box;padding:.4rem}</style></head>
<body>
<h1>Caixa de e-mails (desenvolvimento)</h1>
<form id="key" hidden>
  <p>Esta caixa mostra links de confirmação e de redefinição de senha. Informe a chave
  <code>service_role</code> (impressa por <code>npm start</code>) para lê-la.</p>
  <input name="key" type="password" autocomplete="off" aria-label="Chave service_role" required>
  <p><button>Abrir</button></p>
</form>
<p id="status"></p>
<main id="mails"></main>
<script>
const STORE = 'saudeja.mailbox.serviceRoleKey';
const form = document.getElementById('key');
const status = document.getElementById('status');
const list = document.getElementById('mails');
const el = (tag, text) => { const e = document.createElement(tag); if (text) e.textContent = text; return e; };
function render(mails) {
  list.replaceChildren();
  if (!mails.length) list.append(el('p', 'Nenhuma mensagem.'));
  for (const m of mails) {
    const a = el('article');
    const meta = el('p', 'Para: ' + m.to + ' · ' + m.created_at); meta.className = 'meta';
    a.append(el('h2', m.subject), meta, el('pre', m.text));
    const ul = el('ul');
    for (const l of m.links) {
      if (!l.startsWith('https://') && !l.startsWith('http://')) continue;
      const link = el('a', l); link.href = l; const li = el('li'); li.append(link); ul.append(li);
    }
    a.append(ul);
    list.append(a);
  }
}
async function load() {
  const key = localStorage.getItem(STORE);
  if (!key) { form.hidden = false; return; }
  const res = await fetch('/mailbox/api', { headers: { apikey: key } });
  if (res.status === 403) { localStorage.removeItem(STORE); status.textContent = 'Chave inválida.'; form.hidden = false; return; }
  form.hidden = true; status.textContent = '';
  render(await res.json());
}
form.addEventListener('submit', (e) => {
  e.preventDefault();
  localStorage.setItem(STORE, new FormData(form).get('key').trim());
  void load();
});
void load();
</script>
</body>
</html>`;
