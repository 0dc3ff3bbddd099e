import { resolve } from 'node:path';
import type { Plugin, Rolldown } from 'vite';
import { beforeAppScript } from './inline-script.ts';
import { reachable } from './page-chunks.ts';

type Chunk = Rolldown.OutputChunk;

/** A chunk's file and every file it imports statically, transitively. */
function withImports(chunk: Chunk, byFile: ReadonlyMap<string, Chunk>): Set<string> {
  return reachable(chunk.fileName, (file) => byFile.get(file)?.imports ?? []);
}

/**
 * The inline script: index.html is the one document of every path, so it picks the opened
 * path's files itself — an exact path first, then a `…/*` one that the path is or is under.
 * `crossorigin` as on Vite's module tags, so each preload is the request the module loader
 * then uses.
 */
function preloadScript(pages: Record<string, string[]>): string {
  return `(function(){var m=${JSON.stringify(pages)},p=location.pathname,f=m[p];if(!f)for(var k in m)if(k.slice(-2)==='/*'&&(p+'/').indexOf(k.slice(0,-1))===0){f=m[k];break;}if(!f)return;for(var i=0;i<f.length;i++){var l=document.createElement('link');l.rel='modulepreload';l.crossOrigin='';l.href=f[i];document.head.appendChild(l);}})();`;
}

/**
 * A page opened directly at one of `pages` (path → the route module it renders; a path ending
 * in `/*` also covers every path under it) has its code requested by index.html itself, beside
 * the app's entry, instead of once the entry has been downloaded and evaluated and the router
 * has asked for it: on a slow phone that is a round trip plus the entry's evaluation earlier
 * (Lighthouse's LCP for the booking page). It also takes the preloads out of the router's
 * first task: Vite's loader adds a `<link rel="modulepreload">` per file of the route, and a
 * dashboard has some thirty, each costing the main thread a few milliseconds on a slow phone
 * after the first paint; with the links already in the document it adds none. Other paths
 * preload nothing more.
 */
export function pagePreload(pages: Record<string, string>): Plugin {
  let root = process.cwd();
  let base = '/';
  return {
    name: 'saude-ja:page-preload',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle }) {
        if (!bundle) return;
        const chunks = Object.values(bundle).filter((c): c is Chunk => c.type === 'chunk');
        const byFile = new Map(chunks.map((c) => [c.fileName, c]));
        const entry = chunks.find((c) => c.isEntry);
        if (!entry) throw new Error('page-preload: the build has no entry chunk');
        // The entry's own imports are preloaded by Vite's tags already.
        const loaded = withImports(entry, byFile);
        const files: Record<string, string[]> = {};
        for (const [path, module] of Object.entries(pages)) {
          const id = resolve(root, module);
          const chunk = chunks.find((c) => c.moduleIds.includes(id));
          if (!chunk) throw new Error(`page-preload: no chunk holds ${module}`);
          files[path] = [...withImports(chunk, byFile)]
            .filter((file) => !loaded.has(file))
            .map((file) => `${base}${file}`);
        }
        return beforeAppScript(html, preloadScript(files));
      },
    },
  };
}
