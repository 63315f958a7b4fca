import "server-only";
import type { Db } from "../../base/db";

// The content list's total and deep offsets from the usage counters (server/usage/rollups), whose
// generation counts are exact per hour and per UTC day: the total is a sum of day rows; an offset
// is found by walking days then hours newest first, so the index scan starts in the right hour and
// skips at most that hour's rows. Cost follows the days of history, not its rows.

/** Every generation row of the account, as the list counts them. */
export async function generationTotal(db: Db, accountId: string): Promise<number> {
  const [row] = await db.$queryRaw<{ total: number }[]>`
    SELECT ((SELECT coalesce(sum(generations), 0) FROM generation_usage WHERE account_id = ${accountId}::uuid AND grain = 'day')
          + (SELECT coalesce(sum(generations), 0) FROM generation_usage_change WHERE account_id = ${accountId}::uuid))::int AS total`;
  return row?.total ?? 0;
}

/** The ids of the page at `offset` (created_at desc, id desc); empty past the end. */
export async function generationIdsAtOffset(db: Db, accountId: string, page: { offset: number; limit: number }): Promise<string[]> {
  const account = accountId;
  const rows = await db.$queryRaw<{ id: string }[]>`
    WITH days AS (
      SELECT day, sum(generations) AS n FROM (
        SELECT bucket AS day, generations FROM generation_usage WHERE account_id = ${account}::uuid AND grain = 'day'
        UNION ALL
        SELECT date_trunc('day', bucket AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', generations FROM generation_usage_change WHERE account_id = ${account}::uuid
      ) counted GROUP BY day
    ),
    target_day AS (
      SELECT day, through - n AS newer
        FROM (SELECT day, n, sum(n) OVER (ORDER BY day DESC) AS through FROM days) ranked
       WHERE through > ${page.offset} ORDER BY day DESC LIMIT 1
    ),
    hours AS (
      SELECT hour, sum(generations) AS n FROM (
        SELECT bucket AS hour, generations FROM generation_usage, target_day
         WHERE account_id = ${account}::uuid AND grain = 'hour' AND bucket >= target_day.day AND bucket < target_day.day + interval '1 day'
        UNION ALL
        SELECT bucket, generations FROM generation_usage_change, target_day
         WHERE account_id = ${account}::uuid AND bucket >= target_day.day AND bucket < target_day.day + interval '1 day'
      ) counted GROUP BY hour
    ),
    target_hour AS (
      SELECT hour, through - n AS newer
        FROM (SELECT hour, n, (SELECT newer FROM target_day) + sum(n) OVER (ORDER BY hour DESC) AS through FROM hours) ranked
       WHERE through > ${page.offset} ORDER BY hour DESC LIMIT 1
    )
    SELECT g.id::text AS id FROM generation g
     WHERE g.account_id = ${account}::uuid AND g.created_at < (SELECT hour + interval '1 hour' FROM target_hour)
     ORDER BY g.created_at DESC, g.id DESC
    OFFSET (SELECT ${page.offset} - newer FROM target_hour) LIMIT ${page.limit}`;
  return rows.map((row) => row.id);
}
