// A worker thread's entry is loaded before any `--import` hook could apply in it (Node 20), so
// the engine's TypeScript is loaded through tsx's API, the loader `npm start` and the tests use.
import { tsImport } from 'tsx/esm/api';

await tsImport('./pglite-worker.ts', import.meta.url);
