import "server-only";

// Retention deletes in bounded batches: each batch is one DELETE statement (its own short
// transaction, no lock held between batches), repeated until a batch comes back short.

export const RETENTION_BATCH_SIZE = 500;

/** What each kind's purge gets: rows older than `cutoff` go, `batchSize` per statement. */
export type PurgeInput = { cutoff: Date; batchSize: number };

export async function deleteInBatches(batchSize: number, deleteBatch: (limit: number) => Promise<number>): Promise<number> {
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new RangeError(`Invalid retention batch size ${batchSize}`);
  let total = 0;
  for (;;) {
    const deleted = await deleteBatch(batchSize);
    total += deleted;
    if (deleted < batchSize) return total;
  }
}
