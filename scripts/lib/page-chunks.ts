import { resolve } from 'node:path';
import type { Plugin } from 'vite';

/** What `getModuleInfo` tells of a module, as far as this needs it. */
type ModuleGraph = { getModuleInfo(id: string): { importedIds: readonly string[] } | null };

/** `starts` and everything `next` leads to from them, transitively. */
export function reachable(
  starts: string | readonly string[],
  next: (node: string) => readonly string[],
): Set<string> {
  const seen = new Set<string>();
  const pending = typeof starts === 'string' ? [starts] : [...starts];
  while (pending.length) {
    const node = pending.pop()!;
    if (seen.has(node)) continue;
    seen.add(node);
    pending.push(...next(node));
  }
  return seen;
}

/** `starts` and every module they import statically, transitively. */
function staticClosure(graph: ModuleGraph, starts: string | readonly string[]): Set<string> {
  return reachable(starts, (id) => graph.getModuleInfo(id)?.importedIds ?? []);
}

export type PageChunksOptions = {
  /** The chunks' name: `name` and `name`-shared. */
  name: string;
  /** The entry module (its static imports load with the app, not with the page). */
  entry: string;
  /** The route module of the page to load in few files. */
  page: string;
  /** Route modules that show the page's own parts (they load its chunk rather than copies). */
  family: readonly string[];
  /** Route modules of pages that must stay light (static texts): what they import stays apart. */
  light: readonly string[];
};

/**
 * Source bytes under which a part of the shared chunk (the modules one set of pages needs)
 * is merged into its closest neighbour rather than made a file of its own: fewer files for the
 * page, for a few kilobytes other pages load without running.
 */
const SHARED_PART_MIN_BYTES = 24 * 1024;

/**
 * The booking page's code in a handful of files instead of the nineteen small chunks automatic
 * splitting made of it. Over HTTP/1.1 a browser fetches six files at a time from one host, so
 * nineteen files meant four round trips before the page could paint on a slow phone. The
 * page's modules go into `name` when only the page and its family need them, and into
 * `name`-shared parts (split by the pages that need them, small parts merged) when others do
 * too; what the light pages need stays in automatic chunks, so a legal text never loads the
 * booking page's code. The groups' tests read the module graph this plugin records at the end
 * of the build phase, before chunks are made; `includeDependenciesRecursively: false` keeps
 * each group to exactly those modules.
 */
export function pageChunks(options: PageChunksOptions) {
  let root = process.cwd();
  let own = new Set<string>();
  let shared = new Set<string>();
  const plugin: Plugin = {
    name: 'saude-ja:page-chunks',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    buildEnd() {
      const page = resolve(root, options.page);
      const family = new Set([page, ...options.family.map((module) => resolve(root, module))]);
      const entry = staticClosure(this, resolve(root, options.entry));
      const light = staticClosure(
        this,
        options.light.map((module) => resolve(root, module)),
      );
      // What the other lazily loaded pages and parts load: one walk from all of them.
      const otherTargets = [...this.getModuleIds()]
        .flatMap((id) => this.getModuleInfo(id)?.dynamicallyImportedIds ?? [])
        .filter((target) => !family.has(target));
      const elsewhere = staticClosure(this, otherTargets);
      own = new Set();
      shared = new Set();
      for (const id of staticClosure(this, page)) {
        if (entry.has(id) || light.has(id)) continue;
        (elsewhere.has(id) ? shared : own).add(id);
      }
    },
  };
  const groups = [
    {
      name: `${options.name}-shared`,
      priority: 2,
      includeDependenciesRecursively: false,
      entriesAware: true,
      entriesAwareMergeThreshold: SHARED_PART_MIN_BYTES,
      test: (id: string) => shared.has(id),
    },
    {
      name: options.name,
      priority: 1,
      includeDependenciesRecursively: false,
      test: (id: string) => own.has(id),
    },
  ];
  return { plugin, groups };
}

/** A chunk's file name without the list of pages an `entriesAware` part's name carries. */
export function chunkFileName(chunk: { name: string }): string {
  return `assets/${chunk.name.split('~')[0]}-[hash].js`;
}
