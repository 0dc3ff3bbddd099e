import { resolve } from 'node:path';
import { build, type Plugin, type ResolvedConfig, type Rolldown } from 'vite';

/** `entry` bundled alone into one minified classic script, with the app's aliases and env. */
async function compile(config: ResolvedConfig, entry: string): Promise<string> {
  const result = await build({
    configFile: false,
    root: config.root,
    mode: config.mode,
    envDir: config.envDir,
    resolve: { alias: config.resolve.alias },
    logLevel: 'warn',
    build: {
      write: false,
      minify: true,
      lib: { entry: resolve(config.root, entry), formats: ['iife'], name: 'early' },
    },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[];
  const chunks = outputs.flatMap((output) => output.output).filter((o) => o.type === 'chunk');
  if (chunks.length !== 1) throw new Error(`inline-script: ${entry} did not bundle to one script`);
  return chunks[0]!.code.trim();
}

/**
 * `html` with `script` inlined just before the app's module script, and so before the
 * stylesheet: a classic script placed after a stylesheet waits for it to download.
 */
export function beforeAppScript(html: string, script: string): string {
  const at = html.indexOf('<script type="module"');
  if (at < 0) throw new Error('inline-script: index.html has no module script');
  return `${html.slice(0, at)}<script>${script}</script>\n    ${html.slice(at)}`;
}

/**
 * Inlines `entry`, compiled on its own, in index.html's head, so it runs while the page is
 * parsed rather than after the app's JavaScript has been downloaded and evaluated. For a few
 * hundred bytes that must start work early (src/app/early-reads.ts); it must import nothing
 * big, since every page carries it.
 */
export function inlineScript(entry: string): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'saude-ja:inline-script',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    transformIndexHtml: {
      order: 'post',
      async handler(html) {
        return beforeAppScript(html, await compile(config, entry));
      },
    },
  };
}
