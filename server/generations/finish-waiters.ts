// The creates waiting for their generation to finish (`Prefer: wait`, wait-for-finish.ts), by
// generation id, and the switch that releases them at shutdown. On globalThis: Next's bundle and
// the boot script (which shuts down) load separate copies of this module.

export type FinishWaiter = { wake: () => void };
type WaitersState = { byGeneration: Map<string, Set<FinishWaiter>>; released: boolean };

const globalWaiters = globalThis as unknown as { darkroomFinishWaiters?: WaitersState };
const state = () => (globalWaiters.darkroomFinishWaiters ??= { byGeneration: new Map(), released: false });

export function addWaiter(generationId: string, waiter: FinishWaiter): () => void {
  const { byGeneration } = state();
  const set = byGeneration.get(generationId) ?? new Set<FinishWaiter>();
  byGeneration.set(generationId, set.add(waiter));
  return () => {
    set.delete(waiter);
    if (set.size === 0 && byGeneration.get(generationId) === set) byGeneration.delete(generationId);
  };
}

/** The waiters of one generation (a notice), or all of them (notices may have been missed). */
export function wakeWaiters(generationId?: string) {
  const sets =
    generationId === undefined ? [...state().byGeneration.values()] : [state().byGeneration.get(generationId) ?? new Set<FinishWaiter>()];
  for (const set of sets) for (const waiter of set) waiter.wake();
}

export const waitersReleased = () => state().released;

/**
 * Shutdown: every waiting create answers now with its record as it stands (its client keeps the
 * generation id), and later ones do not wait. Resolves once they have answered, or after `graceMs`.
 */
export async function releaseFinishWaiters(graceMs = 2_000): Promise<void> {
  state().released = true;
  wakeWaiters();
  const deadline = Date.now() + graceMs;
  while (state().byGeneration.size > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
}
