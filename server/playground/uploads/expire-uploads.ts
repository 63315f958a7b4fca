import "server-only";
import { db } from "../../base/db";
import { log } from "../../base/log";
import { getStorage } from "../../storage/get-storage";
import type { OutputStorage } from "../../storage/storage";

// Uploads past their expiry (24 h, or at once when their account is deleted): the object, then
// the row. A missing object is not an error; an object that could not be deleted (storage down)
// keeps its row for the next pass. Run with the output-file expiry (server/jobs/functions).

const BATCH = 200;

export type ExpiredUploads = { uploads: number; filesDeleted: number; deferred: number };

export async function expireUploads(
  options: { now?: Date; accountId?: string; batchSize?: number } = {},
  storage: OutputStorage = getStorage(),
): Promise<ExpiredUploads> {
  const now = options.now ?? new Date();
  const batchSize = options.batchSize ?? BATCH;
  const result: ExpiredUploads = { uploads: 0, filesDeleted: 0, deferred: 0 };
  for (;;) {
    const rows = await db.playgroundUpload.findMany({
      where: { expiresAt: { lte: now }, ...(options.accountId ? { accountId: options.accountId } : {}) },
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
