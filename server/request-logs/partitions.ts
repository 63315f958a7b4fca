import "server-only";
import type pg from "pg";
import { log } from "../base/log";
import { afterRequestLogPartitionDropped } from "./after-partition-dropped";

// request_log_row is partitioned by week (Monday 00:00 UTC to the next, partitions named
// request_log_row_YYYYMMDD). Weeks are made ahead (at start, and hourly by retention) and, should a
// row still find none, by the writer; whole weeks are dropped once every row in them is older
// than the longest plan window. There is no DEFAULT partition: it would forbid DETACH … CONCURRENTLY,
// which lets a week go without blocking the log's readers and writers.

type Queryable = Pick<pg.Pool, "query">;

export type RequestLogPartition = { name: string; since: Date; until: Date; pending: boolean };

const WEEK_MS = 7 * 24 * 3600 * 1000;
/** How far ahead of now weeks exist (a writer finding none makes it anyway). */
export const WEEKS_AHEAD = 4;

/** Makes the weeks from the one holding `since` to the one holding `until` that are missing; returns how many. */
export async function ensureRequestLogPartitions(pool: Queryable, since: Date, until: Date): Promise<number> {
  const { rows } = await pool.query<{ made: number }>("SELECT request_log_ensure_partitions($1, $2) AS made", [
    since.toISOString(),
    until.toISOString(),
  ]);
  const made = rows[0]?.made ?? 0;
  if (made > 0) log.info("request log: weeks made", { made, since: since.toISOString(), until: until.toISOString() });
  return made;
}

/** Last week to WEEKS_AHEAD weeks after `now`. */
export function ensureRequestLogWeeksAhead(pool: Queryable, now: Date): Promise<number> {
  return ensureRequestLogPartitions(pool, new Date(now.getTime() - WEEK_MS), new Date(now.getTime() + WEEKS_AHEAD * WEEK_MS));
}

export async function requestLogPartitions(pool: Queryable): Promise<RequestLogPartition[]> {
  const { rows } = await pool.query<RequestLogPartition>("SELECT name, since, until, pending FROM request_log_partitions()");
  return rows;
}

export type DroppedPartitions = { partitions: string[]; rows: number };

/** How long a detach waits for the transactions that may still see its week before the pass gives up (until the next). */
const DETACH_WAIT = "5min";

/**
 * Detaches and drops every week that ends at or before `cutoff`, oldest first: counted, detached
 * CONCURRENTLY (a read already running keeps its rows; one that starts later no longer sees them),
 * dropped, then afterRequestLogPartitionDropped. A detach that waited too long (a transaction held
 * open elsewhere), or was cut short earlier, stays pending and is finished by a later pass.
 */
export async function dropRequestLogPartitionsBefore(pool: pg.Pool, cutoff: Date): Promise<DroppedPartitions> {
  const dropped: DroppedPartitions = { partitions: [], rows: 0 };
  for (const partition of await requestLogPartitions(pool)) {
    if (partition.until.getTime() > cutoff.getTime()) continue;
    const name = quoteIdent(partition.name);
    const { rows } = await pool.query<{ count: string }>(`SELECT count(*) FROM ${name}`);
    if (!(await detach(pool, name, partition.pending))) return dropped;
    await pool.query(`DROP TABLE ${name}`);
    dropped.partitions.push(partition.name);
    dropped.rows += Number(rows[0]?.count ?? 0);
    log.info("request log: week dropped", { partition: partition.name, rows: Number(rows[0]?.count ?? 0) });
    await afterRequestLogPartitionDropped(pool, { since: partition.since, until: partition.until });
  }
  return dropped;
}

/** DETACH … CONCURRENTLY (or FINALIZE) outside any transaction, as it must run; false when it waited too long. */
async function detach(pool: pg.Pool, name: string, pending: boolean): Promise<boolean> {
  const client = await pool.connect();
  try {
    await client.query(`SET lock_timeout = '${DETACH_WAIT}'`);
    await client.query(`ALTER TABLE request_log_row DETACH PARTITION ${name} ${pending ? "FINALIZE" : "CONCURRENTLY"}`);
    return true;
  } catch (error) {
    if ((error as { code?: string }).code !== "55P03") throw error;
    log.warn("request log: a week's detach waited too long, left for the next pass", { partition: name });
    return false;
  } finally {
    await client.query("RESET lock_timeout").catch(() => undefined);
    client.release();
  }
}

function quoteIdent(name: string): string {
  if (!/^request_log_row_\d{8}$/.test(name)) throw new Error(`not a request log partition: ${name}`);
  return `"${name}"`;
}
