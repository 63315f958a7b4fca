import "server-only";
import { formatCredits } from "../base/money";
import type { OneAccount } from "../base/account-scope";
import type { Db } from "../base/db";
import { ApiError } from "../base/error-table";
import { isGuid } from "../base/guid";

// The overview chart: per UTC day of the last `days`, generations by outcome and credits charged.
// Days without activity are present with zeros, so the chart's axis is continuous.

export type DailyActivity = { day: string; succeeded: number; failed: number; canceled: number; charged: number };

type Row = { day: string; succeeded: number; failed: number; canceled: number; charged_millis: bigint };

export async function getDailyActivity(
  db: Db,
  scope: OneAccount,
  { days = 30, now = new Date() }: { days?: number; now?: Date } = {},
): Promise<DailyActivity[]> {
  const { accountId } = scope;
  if (!isGuid(accountId)) throw new ApiError("ERR1006", "Account not found.", { account_id: accountId });
  const span = Math.min(Math.max(Math.trunc(days), 1), 90);
  const rows = await db.$queryRaw<Row[]>`
    WITH days AS (
      SELECT generate_series((${now}::timestamptz AT TIME ZONE 'UTC')::date - (${span}::int - 1), (${now}::timestamptz AT TIME ZONE 'UTC')::date, interval '1 day')::date AS day
    ),
    generations AS (
      SELECT (created_at AT TIME ZONE 'UTC')::date AS day,
             count(*) FILTER (WHERE status = 'succeeded')::int AS succeeded,
             count(*) FILTER (WHERE status = 'failed')::int AS failed,
             count(*) FILTER (WHERE status = 'canceled')::int AS canceled
      FROM generation
      WHERE account_id = ${accountId}::uuid AND created_at >= (SELECT min(day) FROM days)
      GROUP BY 1
    ),
    charges AS (
      SELECT (created_at AT TIME ZONE 'UTC')::date AS day, (sum(abs(amount)) * 1000)::bigint AS charged_millis
      FROM ledger_entry
      WHERE account_id = ${accountId}::uuid AND type = 'charge' AND created_at >= (SELECT min(day) FROM days)
      GROUP BY 1
    )
    SELECT to_char(days.day, 'YYYY-MM-DD') AS day,
           coalesce(g.succeeded, 0) AS succeeded, coalesce(g.failed, 0) AS failed, coalesce(g.canceled, 0) AS canceled,
           coalesce(c.charged_millis, 0)::bigint AS charged_millis
    FROM days LEFT JOIN generations g ON g.day = days.day LEFT JOIN charges c ON c.day = days.day
    ORDER BY days.day`;
  return rows.map((row) => ({
    day: row.day,
    succeeded: row.succeeded,
    failed: row.failed,
    canceled: row.canceled,
    charged: formatCredits(Number(row.charged_millis)),
  }));
}
