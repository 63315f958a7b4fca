import "server-only";
import { formatCredits } from "../base/money";
import type { OneAccount } from "../base/account-scope";
import type { Db } from "../base/db";
import type { RegionName } from "../base/env";
import { generationCostMillis, inUsageWindow, usageWindow } from "./usage-window";

// The usage page's charts: per UTC day, /v1 requests by outcome and the estimated spend, over the
// very window and with the very rules of getUsage (GET /v1/usage), so the bars add up to its
// totals, in the same region. The first and last days are partial: the window is [now − days, now].

export type DailyUsage = { day: string; success: number; client_errors: number; server_errors: number; estimated_cost: number };

type Row = { day: string; success: number; client_errors: number; server_errors: number; cost_millis: bigint };

export async function getDailyUsage(
  database: Db,
  scope: OneAccount,
  input: { days: number; region: RegionName; now?: Date },
): Promise<DailyUsage[]> {
  const { days, region, now = new Date() } = input;
  const period = usageWindow(scope.accountId, days, region, now);
  const { since, until } = period;
  const rows = await database.$queryRaw<Row[]>`
    WITH days AS (
      SELECT generate_series((${since}::timestamptz AT TIME ZONE 'UTC')::date, (${until}::timestamptz AT TIME ZONE 'UTC')::date, interval '1 day')::date AS day
    ),
    requests AS (
      SELECT (created_at AT TIME ZONE 'UTC')::date AS day,
             count(*) FILTER (WHERE status_code BETWEEN 200 AND 299)::int AS success,
             count(*) FILTER (WHERE status_code BETWEEN 400 AND 499)::int AS client_errors,
             count(*) FILTER (WHERE status_code BETWEEN 500 AND 599)::int AS server_errors
        FROM request_log
       WHERE ${inUsageWindow(period)}
       GROUP BY 1
    ),
    spend AS (
      SELECT (created_at AT TIME ZONE 'UTC')::date AS day,
             ${generationCostMillis} AS cost_millis
        FROM generation
       WHERE ${inUsageWindow(period)}
       GROUP BY 1
    )
    SELECT to_char(days.day, 'YYYY-MM-DD') AS day,
           coalesce(r.success, 0) AS success, coalesce(r.client_errors, 0) AS client_errors, coalesce(r.server_errors, 0) AS server_errors,
           coalesce(s.cost_millis, 0)::bigint AS cost_millis
      FROM days LEFT JOIN requests r ON r.day = days.day LEFT JOIN spend s ON s.day = days.day
     ORDER BY days.day`;
  return rows.map((row) => ({
    day: row.day,
    success: row.success,
    client_errors: row.client_errors,
    server_errors: row.server_errors,
    estimated_cost: formatCredits(Number(row.cost_millis)),
  }));
}
