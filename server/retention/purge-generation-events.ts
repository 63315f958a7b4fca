import "server-only";
import { db } from "../base/db";
import { deleteInBatches } from "./delete-in-batches";

// The live streams' event log (generation_event, issue #31) is a resume buffer, not an account's
// records: Last-Event-ID works for 24 h, so events are kept 48 h, then go. Run by the operator's
// retention pass (the hourly cron, `retention:run` without --account).

export const GENERATION_EVENT_RETENTION_HOURS = 48;

export async function purgeGenerationEvents(now: Date, batchSize: number): Promise<number> {
  const before = new Date(now.getTime() - GENERATION_EVENT_RETENTION_HOURS * 3600 * 1000).toISOString();
  return deleteInBatches(
    batchSize,
    (limit) => db.$executeRaw`
      DELETE FROM generation_event WHERE id IN (SELECT id FROM generation_event WHERE created_at < ${before}::timestamptz ORDER BY id LIMIT ${limit})`,
  );
}
