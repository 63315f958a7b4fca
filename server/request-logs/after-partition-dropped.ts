import "server-only";
import type pg from "pg";
import { forgetRequestCounts } from "../usage/rollups/forget-request-counts";
import { forgetUnusedEntries } from "./forget-unused-entries";

// A dropped week fires no DELETE trigger: whatever mirrors the rows of request_log_row (its small
// tables here; counters kept from its rows, say) forgets that week's rows in this function, which
// retention calls after each week it drops (partitions.ts), with the week's bounds [since, until).

type Queryable = Pick<pg.Pool, "query">;

export type DroppedWeek = { since: Date; until: Date };

export async function afterRequestLogPartitionDropped(pool: Queryable, week: DroppedWeek): Promise<void> {
  await forgetRequestCounts(pool, week);
  // No row is older than the oldest week left (or than this one's end, when none is left).
  const { rows } = await pool.query<{ oldest: Date | null }>("SELECT min(since) AS oldest FROM request_log_partitions()");
  await forgetUnusedEntries(pool, rows[0]?.oldest ?? week.until);
}
