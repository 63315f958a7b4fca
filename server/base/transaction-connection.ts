import { AsyncLocalStorage } from "node:async_hooks";
import type pg from "pg";

// Which pool connection a transaction opened by inTransaction holds. Prisma checks a connection out
// of our pool when its interactive transaction starts (after BEGIN nothing else uses it until
// COMMIT or ROLLBACK releases it); inTransaction runs that start inside a slot of its own, and the
// pool notes the connection there. Statements of that transaction may then go to the connection
// with pg directly (server/base/transaction-sql.ts), skipping Prisma's per-statement work. The slot
// closes when the connection is released, so nothing is ever sent on a connection the
// transaction no longer holds. Kept on globalThis: Next's bundle and the boot script share it.

export type TransactionSlot = { client: pg.PoolClient | null; closed: boolean };

const holder = globalThis as unknown as { __darkroomTransactionSlots?: AsyncLocalStorage<TransactionSlot> };

function slots(): AsyncLocalStorage<TransactionSlot> {
  holder.__darkroomTransactionSlots ??= new AsyncLocalStorage<TransactionSlot>();
  return holder.__darkroomTransactionSlots;
}

/** Runs `start` (the call that opens a Prisma transaction) with a fresh slot, returned beside its result. */
export function withTransactionSlot<T>(start: (slot: TransactionSlot) => Promise<T>): Promise<T> {
  const slot: TransactionSlot = { client: null, closed: false };
  return slots().run(slot, () => start(slot));
}

/** Called by the pool on every promise-form checkout: the first one in a slot is its transaction's. */
export function noteTransactionConnection(client: pg.PoolClient): void {
  const slot = slots().getStore();
  if (!slot || slot.client !== null || slot.closed) return;
  slot.client = client;
  const release = client.release;
  client.release = ((error?: Error | boolean) => {
    slot.client = null;
    slot.closed = true;
    client.release = release;
    return release.call(client, error);
  }) as typeof client.release;
}
