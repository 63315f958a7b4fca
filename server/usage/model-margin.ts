import type { AccountScope } from "../base/account-scope";
import { Prisma } from "../base/generated/prisma/client";
import type { Db } from "../base/db";
import { formatCredits } from "../base/money";

// The operator's margin per model and provider over a window (`npm run cli -- catalog:margin`):
// what the attempts that succeeded were sold for (their generation's price), what the providers
// charged us (the catalog's cost, recorded on each attempt whose outputs existed), and of that
// what was thrown away (a discarded result, outputs lost after they were made). Every account, or one.

export type ModelMargin = {
  model: string;
  provider: string;
  attempts: number;
  succeeded: number;
  /** Credits (= USD) charged to accounts for the successes. */
  revenue: number;
  /** USD the provider charged us, wasted attempts included. */
  provider_cost: number;
  wasted_provider_cost: number;
  margin: number;
  /** margin ÷ revenue; null without revenue. */
  margin_rate: number | null;
};

type Row = {
  model: string;
  provider: string;
  attempts: number;
  succeeded: number;
  revenue_millis: bigint;
  cost_micros: bigint;
  wasted_micros: bigint;
};

export async function modelMargins(
  database: Db,
  scope: AccountScope,
  input: { days: number; region?: string; now?: Date },
): Promise<{ days: number; region: string | null; models: ModelMargin[] }> {
  const now = input.now ?? new Date();
  const since = new Date(now.getTime() - input.days * 86_400_000);
  const region = input.region === undefined ? Prisma.empty : Prisma.sql`AND region = ${input.region}::"Region"`;
  const account = "accountId" in scope ? Prisma.sql`AND account_id = ${scope.accountId}::uuid` : Prisma.empty;
  const rows = await database.$queryRaw<Row[]>`
    SELECT model_identifier AS model, provider,
           count(*)::int                                                                        AS attempts,
           count(*) FILTER (WHERE outcome = 'succeeded')::int                                   AS succeeded,
           (coalesce(sum(estimated_cost) FILTER (WHERE outcome = 'succeeded'), 0) * 1000)::bigint AS revenue_millis,
           (coalesce(sum(provider_cost), 0) * 1000000)::bigint                                   AS cost_micros,
           (coalesce(sum(provider_cost) FILTER (WHERE outcome <> 'succeeded'), 0) * 1000000)::bigint AS wasted_micros
      FROM provider_attempt
     WHERE started_at >= ${since} AND started_at <= ${now} ${region} ${account}
     GROUP BY model_identifier, provider
     ORDER BY revenue_millis DESC, model_identifier, provider`;
  const models = rows.map((row): ModelMargin => {
    const revenueMicros = Number(row.revenue_millis) * 1000;
    const marginMicros = revenueMicros - Number(row.cost_micros);
    return {
      model: row.model,
      provider: row.provider,
      attempts: row.attempts,
      succeeded: row.succeeded,
      revenue: formatCredits(Number(row.revenue_millis)),
      provider_cost: Number(row.cost_micros) / 1_000_000,
      wasted_provider_cost: Number(row.wasted_micros) / 1_000_000,
      margin: marginMicros / 1_000_000,
      margin_rate: revenueMicros === 0 ? null : Math.round((marginMicros / revenueMicros) * 1000) / 1000,
    };
  });
  return { days: input.days, region: input.region ?? null, models };
}
