import "server-only";
import type { OneAccount } from "../base/account-scope";
import type { Db } from "../base/db";
import type { PurgeInput } from "./delete-in-batches";
import { log } from "../base/log";
import { deletePlacedOutputs } from "../storage/destinations/output-placement";

// Generation records older than the plan's window, with their output files. Only terminal records
// go (a generation in flight is kept whatever its age). Files are deleted before the row, and a
// missing file is not an error, so a crash in between only leaves a row whose files are already
// gone; the next run deletes it. A row whose files could not be deleted (storage down) is kept and
// retried on the next run. Provider attempts go with the row (foreign key, cascade); ledger
// entries stay (plain reference) until their own, longer window.

const TERMINAL = ["succeeded", "failed", "canceled"] as const;

export type PurgedGenerations = { generations: number; files: number; deferred: number };

export async function purgeGenerations(db: Db, scope: OneAccount, { cutoff, batchSize }: PurgeInput): Promise<PurgedGenerations> {
  const { accountId } = scope;
  const result: PurgedGenerations = { generations: 0, files: 0, deferred: 0 };
  for (;;) {
    const rows = await db.generation.findMany({
      where: { accountId, createdAt: { lt: cutoff }, status: { in: [...TERMINAL] } },
      select: { id: true, accountId: true, outputKeys: true, outputLocations: true, outputDestination: true },
      orderBy: { createdAt: "asc" },
      take: batchSize,
    });
    const filesGone: string[] = [];
    for (const row of rows) {
      try {
        // Our copies only: files in the account's own bucket are the account's (docs/storage.md).
        result.files += await deletePlacedOutputs(row, { customerFiles: false });
        filesGone.push(row.id);
      } catch (error) {
        result.deferred += 1;
        log.warn("retention: output files not deleted, the record stays until the next run", {
          generation_id: row.id,
          error: error instanceof Error ? error.message : String(error),
        });
      }
    }
    if (filesGone.length > 0)
      result.generations += (await db.generation.deleteMany({ where: { id: { in: filesGone }, status: { in: [...TERMINAL] } } })).count;
    // A short batch was the last one; a batch with failures would be selected again, so stop.
    if (rows.length < batchSize || filesGone.length < rows.length) return result;
  }
}
