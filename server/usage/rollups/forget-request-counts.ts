import "server-only";
import type pg from "pg";

type Queryable = Pick<pg.Pool, "query">;

/**
 * A dropped week of the request log fires no DELETE trigger: its counters go here, so they keep
 * equalling the rows. [since, until) is the week's range (UTC days: whole day rows fall inside).
 */
export async function forgetRequestCounts(pool: Queryable, range: { since: Date; until: Date }): Promise<void> {
  const bounds = [range.since.toISOString(), range.until.toISOString()];
  await pool.query(`DELETE FROM request_usage WHERE bucket >= $1 AND bucket < $2`, bounds);
  await pool.query(`DELETE FROM request_usage_change WHERE bucket >= $1 AND bucket < $2`, bounds);
}
