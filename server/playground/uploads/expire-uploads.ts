import "server-only";
import { scopeWhere, type AccountScope } from "../../base/account-scope";
import { db } from "../../base/db";
import { log } from "../../base/log";
import { getStorage } from "../../storage/get-storage";
import type { OutputStorage } from "../../storage/storage";

// Uploads past their expiry (24 h, or at once when their account is deleted): the object, then
// the row. A missing object is not an error; an object that could not be deleted (storage down)
// keeps its row for the next pass. Run with the output-file expiry (server/jobs/functions).

const BATCH = 200;

export type ExpiredUploads = { uploads: number; filesDeleted: number; deferred: number };

/** The scope's uploads expired as of `now`: one account's, or every account's (OPERATOR, the cron). */
export async function expireUploads(
  scope: AccountScope,
  options: { now?: Date; batchSize?: number } = {},
  storage: OutputStorage = getStorage(),
): Promise<ExpiredUploads> {
  const now = options.now ?? new Date();
  const batchSize = options.batchSize ?? BATCH;
  const result: ExpiredUploads = { uploads: 0, filesDeleted: 0, deferred: 0 };
  for (;;) {
    const rows = await db.playgroundUpload.findMany({
      where: { expiresAt: { lte: now }, ...scopeWhere(scope) },
      select: { id: true, storageKey: true },
      orderBy: { expiresAt: "asc" },
      take: batchSize,
    });
    const gone: string[] = [];
    for (const row of rows) {
      try {
        if (await storage.delete(row.storageKey)) result.filesDeleted += 1;
        gone.push(row.id);
      } catch (error) {
        result.deferred += 1;
        log.warn("playground upload not deleted, kept for the next pass", {
          upload_id: row.id,
          error: error instanceof Error ? error.message : String(error),
        });
      }
    }
    if (gone.length > 0) result.uploads += (await db.playgroundUpload.deleteMany({ where: { id: { in: gone } } })).count;
    if (rows.length < batchSize || gone.length < rows.length) return result;
  }
}
