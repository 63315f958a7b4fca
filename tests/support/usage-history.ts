import { db } from "@/server/base/db";
import type { RegionName } from "@/server/base/env";
import type { GenerationStatus } from "@/server/base/generated/prisma/enums";

// A known history of generations for the usage export's suites, written as rows (the export reads
// rows; how a generation came to its state is the generation suites' business).

const DAY_MS = 86_400_000;

/** The UTC date `days` before today, YYYY-MM-DD. */
export const utcDay = (days: number, now = new Date()) => new Date(now.getTime() - days * DAY_MS).toISOString().slice(0, 10);

/** `days` before today at hh:mm UTC. */
export const daysAgoAt = (days: number, hours: number, minutes = 0) =>
  new Date(`${utcDay(days)}T${String(hours).padStart(2, "0")}:${String(minutes).padStart(2, "0")}:00.000Z`);

export type HistoryRow = {
  at: Date;
  model: string;
  status: GenerationStatus;
  cost: string;
  keyId?: string | null;
  provider?: string | null;
  region?: RegionName;
};

export async function addGenerations(accountId: string, rows: HistoryRow[]) {
  await db.generation.createMany({
    data: rows.map((row) => ({
      accountId,
      apiKeyId: row.keyId ?? null,
      region: row.region ?? "us",
      mediaKind: "image" as const,
      modelIdentifier: row.model,
      status: row.status,
      providerUsed: row.provider === undefined ? "local" : row.provider,
      estimatedCost: row.cost,
      createdAt: row.at,
    })),
  });
}

/**
 * `count` succeeded generations on one UTC day, one model each (`model-<n>`), so each is its own
 * export row: a large file from one statement.
 */
export async function addGenerationSeries(accountId: string, input: { count: number; day: string; keyId: string | null; offset?: number }) {
  const offset = input.offset ?? 0;
  await db.$executeRaw`
    INSERT INTO generation (id, account_id, api_key_id, region, media_kind, model_identifier, status, provider_used, estimated_cost, created_at, updated_at)
    SELECT gen_random_uuid(), ${accountId}::uuid, ${input.keyId}::uuid, 'us', 'image', 'darkroom/model-' || lpad((n + ${offset})::text, 7, '0'),
           'succeeded', 'local', 0.025, (${input.day}::date::timestamp AT TIME ZONE 'UTC') + make_interval(secs => n * 0.001), now()
      FROM generate_series(1, ${input.count}) AS n`;
}
