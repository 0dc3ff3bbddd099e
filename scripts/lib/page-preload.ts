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
 * then uses. A path of `replica` also gets the engine's files once IndexedDB has answered that
 * the device holds a signed-in person's replica (a database name starting with
 * `replicaPrefix`); a device without one (IndexedDB cannot tell, or answers nothing) asks only
 * for the page's own.
 */
function preloadScript(
  pages: Record<string, string[]>,
  replica: Record<string, string[]>,
  replicaPrefix: string,
): string {
  return `(function(){var m=${JSON.stringify(pages)},e=${JSON.stringify(replica)},x=${JSON.stringify(replicaPrefix)},p=location.pathname,q=m[p]?p:null;if(!q)for(var k in m)if(k.slice(-2)==='/*'&&(p+'/').indexOf(k.slice(0,-1))===0){q=k;break;}if(!q)return;function a(f){for(var i=0;i<f.length;i++){var l=document.createElement('link');l.rel='modulepreload';l.crossOrigin='';l.href=f[i];document.head.appendChild(l);}}a(m[q]);var r=e[q];if(!r||!window.indexedDB||!indexedDB.databases)return;indexedDB.databases().then(function(d){for(var i=0;i<d.length;i++)if((d[i].name||'').indexOf(x)===0){a(r);return;}},function(){});})();`;
}

/** The engine's files to preload on a device with a replica, and which paths want them. */
export type ReplicaPreload = {
  /** The modules that open a replica: the engine's entry and the client it syncs with. */
  modules: string[];
  /** Paths of `pages` that open on the replica's data when the device holds it. */
  paths: string[];
  /** The start of every signed-in person's replica database name (sync/replica-files.ts). */
  prefix: string;
};

/**
 * A page opened directly at one of `pages` (path → the route module it renders; a path ending
 * in `/*` also covers every path under it) has its code requested by index.html itself, beside
 * the app's entry, instead of once the entry has been downloaded and evaluated and the router
 * has asked for it: on a slow phone that is a round trip plus the entry's evaluation earlier
 * (Lighthouse's LCP for the booking page). It also takes the preloads out of the router's
 * first task: Vite's loader adds a `<link rel="modulepreload">` per file of the route, and a
 * dashboard has some thirty, each costing the main thread a few milliseconds on a slow phone
 * after the first paint; with the links already in the document it adds none. Other paths
 * preload nothing more. On a device holding a replica, `replica.paths` also preload the
 * engine, which the app opens at once there (src/session/sync-provider.tsx): a dashboard opened
 * offline reads its list from it, and would otherwise ask for the engine only once the app
 * has started and checked the replica.
 */
export function pagePreload(pages: Record<string, string>, replica: ReplicaPreload): Plugin {
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
        const chunkOf = (module: string) => {
          const id = resolve(root, module);
          const chunk = chunks.find((c) => c.moduleIds.includes(id));
          if (!chunk) throw new Error(`page-preload: no chunk holds ${module}`);
          return chunk;
        };
        const files: Record<string, string[]> = {};
        const engineFiles: Record<string, string[]> = {};
        const engine = new Set(
          replica.modules.flatMap((module) => [...withImports(chunkOf(module), byFile)]),
        );
        for (const [path, module] of Object.entries(pages)) {
          const own = withImports(chunkOf(module), byFile);
          files[path] = [...own]
            .filter((file) => !loaded.has(file))
            .map((file) => `${base}${file}`);
          if (replica.paths.includes(path)) {
            engineFiles[path] = [...engine]
              .filter((file) => !loaded.has(file) && !own.has(file))
              .map((file) => `${base}${file}`);
          }
        }
        return beforeAppScript(html, preloadScript(files, engineFiles, replica.prefix));
      },
    },
  };
}
