/**
 * The actions' registry (sync/outbox/mutations.ts: each action's texts and outcome toasts) for
 * screens that paint before the engine's chunk is in. The registry comes with that chunk
 * (Temporal, valibot, and with sync/index.ts RxDB and Dexie), so a static import would set all
 * of it up with the screen's own code, before its first paint. A screen asks for it once an
 * action has been queued or answered: the engine is loaded by then and this asks for nothing.
 */
export async function loadActionRegistry() {
  const { MUTATIONS, outcomeToast } = await import('../../sync/index.ts');
  return { MUTATIONS, outcomeToast };
}
