import "server-only";
import { sqlPool } from "../base/db";
import { dropRequestLogPartitionsBefore, ensureRequestLogWeeksAhead } from "../request-logs/partitions";
import { LONGEST_REQUEST_LOG_WINDOW_S } from "../request-logs/request-log-window";

// The request log's weeks (server/request-logs/partitions.ts): the ones ahead of the clock made,
// the ones whose every row is older than the longest plan window (a year) detached and dropped
// whole. Run by the operator's retention pass (the hourly cron, `retention:run` without
// --account); returns how many rows went with the weeks dropped.

export async function purgeRequestLogWeeks(now: Date): Promise<number> {
  const pool = sqlPool();
  // Ahead of the real clock, whatever moment the pass is run as of: rows are written now.
  await ensureRequestLogWeeksAhead(pool, new Date());
  const dropped = await dropRequestLogPartitionsBefore(pool, new Date(now.getTime() - LONGEST_REQUEST_LOG_WINDOW_S * 1000));
  return dropped.rows;
}
