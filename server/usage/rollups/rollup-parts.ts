import { Prisma } from "../../base/generated/prisma/client";
import type { UsageBuckets } from "./usage-buckets";

// The FROM part every counter read shares: for one account (and one region, or every region),
// the folded daily and hourly rows, the changes, and the raw rows of the edges, as one UNION ALL
// with the same columns, `at` first. One statement, so one snapshot: a fold committing meanwhile
// is seen wholly or not at all.

export type CounterSource = {
  /** The folded table and its change table. */
  table: string;
  changes: string;
  /** The counted columns as the counter tables name them, after `at`. */
  columns: string;
  /** The same columns computed from a raw row, and the raw table with its time column. */
  rawColumns: string;
  raw: string;
  rawTime: string;
};

export function rollupParts(source: CounterSource, scope: { accountId: string; region: string | null }, buckets: UsageBuckets): Prisma.Sql {
  const { table, changes, columns, rawColumns, raw, rawTime } = source;
  const own = Prisma.sql`account_id = ${scope.accountId}::uuid ${scope.region === null ? Prisma.empty : Prisma.sql`AND region = ${scope.region}::"Region"`}`;
  const { since, hoursFrom, daysFrom, daysUntil, hoursUntil, until } = buckets;
  const time = Prisma.raw(rawTime);
  return Prisma.sql`
    SELECT bucket AS at, ${Prisma.raw(columns)} FROM ${Prisma.raw(table)}
     WHERE ${own} AND grain = 'day' AND bucket >= ${daysFrom} AND bucket < ${daysUntil}
    UNION ALL
    SELECT bucket, ${Prisma.raw(columns)} FROM ${Prisma.raw(table)}
     WHERE ${own} AND grain = 'hour' AND ((bucket >= ${hoursFrom} AND bucket < ${daysFrom}) OR (bucket >= ${daysUntil} AND bucket < ${hoursUntil}))
    UNION ALL
    SELECT bucket, ${Prisma.raw(columns)} FROM ${Prisma.raw(changes)}
     WHERE ${own} AND bucket >= ${hoursFrom} AND bucket < ${hoursUntil}
    UNION ALL
    SELECT ${time}, ${Prisma.raw(rawColumns)} FROM ${Prisma.raw(raw)}
     WHERE ${own} AND ${time} >= ${since} AND ${time} < ${hoursFrom}
    UNION ALL
    SELECT ${time}, ${Prisma.raw(rawColumns)} FROM ${Prisma.raw(raw)}
     WHERE ${own} AND ${time} >= ${hoursUntil} AND ${time} <= ${until}`;
}
