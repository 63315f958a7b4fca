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
  /** A set-returning function (account, since, until), both ends included, that reads the raw rows through their index. */
  rawBetween?: string;
};

export function rollupParts(source: CounterSource, scope: { accountId: string; region: string | null }, buckets: UsageBuckets): Prisma.Sql {
  const { table, changes, columns, rawColumns, rawTime } = source;
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
    SELECT ${time}, ${Prisma.raw(rawColumns)} FROM ${rawRows(source, scope.accountId, since, new Date(hoursFrom.getTime() - 1))}
     WHERE ${own} AND ${time} >= ${since} AND ${time} < ${hoursFrom}
    UNION ALL
    SELECT ${time}, ${Prisma.raw(rawColumns)} FROM ${rawRows(source, scope.accountId, hoursUntil, until)}
     WHERE ${own} AND ${time} >= ${hoursUntil} AND ${time} <= ${until}`;
}

/** The raw table, or its range function over [from, to] (timestamps are to the millisecond). */
function rawRows(source: CounterSource, accountId: string, from: Date, to: Date): Prisma.Sql {
  if (!source.rawBetween) return Prisma.raw(source.raw);
  return Prisma.sql`${Prisma.raw(source.rawBetween)}(${accountId}::uuid, ${from}::timestamptz, ${to}::timestamptz) AS ${Prisma.raw(source.raw)}`;
}
