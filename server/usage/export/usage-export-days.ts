import "server-only";
import type { OneAccount } from "../../base/account-scope";
import type { Db } from "../../base/db";
import type { RegionName } from "../../base/env";
import { Prisma } from "../../base/generated/prisma/client";
import { timeOrderedPages, type TimeOrderedReads } from "../../base/pagination/time-ordered-pages";

// The one source of the usage export's rows (the lead may swap it for the daily rollups): the
// account's generations in one region, read in (created_at, id) order a page at a time
// (timeOrderedPages: each page stops at its LIMIT on the (account_id, created_at) index), and
// added up one UTC day at a time. Memory is bounded by one day's key × model × provider
// combinations and one page, never by the range. A day's rows come out sorted by key, model and
// provider, days in order. Cost counts what was charged or is still reserved (pending,
// processing, succeeded); failed and canceled generations were refunded.

export type UsageExportDay = {
  /** UTC date, YYYY-MM-DD. */
  date: string;
  /** null: a generation without a key (the dashboard's playground runs before their key existed). */
  apiKeyId: string | null;
  model: string;
  /** The provider that ran it; "" when none did (failed or canceled before a provider took it). */
  provider: string;
  generations: number;
  succeeded: number;
  failed: number;
  canceled: number;
  /** Estimated cost in millicredits. */
  costMillis: number;
};

export type UsageExportDaysInput = {
  region: RegionName;
  /** Inclusive. */
  start: Date;
  /** Exclusive. */
  end: Date;
  /** Rows per page; a few thousand by default. */
  pageSize?: number;
};

type GenerationRow = {
  id: string;
  created_at: Date;
  day: string;
  api_key_id: string | null;
  model_identifier: string;
  provider_used: string | null;
  status: string;
  cost_millis: bigint;
};

const DEFAULT_PAGE_SIZE = 5000;
const CHARGED = new Set(["pending", "processing", "succeeded"]);

export async function* usageExportDays(database: Db, scope: OneAccount, input: UsageExportDaysInput): AsyncGenerator<UsageExportDay> {
  let day: string | null = null;
  let groups = new Map<string, UsageExportDay>();
  const pages = timeOrderedPages(
    generationReads(database, scope, input),
    (row) => ({ createdAt: row.created_at, id: row.id }),
    input.pageSize ?? DEFAULT_PAGE_SIZE,
  );
  for await (const page of pages) {
    for (const row of page) {
      if (row.day !== day) {
        yield* sorted(groups);
        groups = new Map();
        day = row.day;
      }
      add(groups, row);
    }
  }
  yield* sorted(groups);
}

const columns = Prisma.sql`id, created_at, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, api_key_id, model_identifier,
  provider_used, status::text AS status, (estimated_cost * 1000)::bigint AS cost_millis`;

function generationReads(database: Db, scope: OneAccount, input: UsageExportDaysInput): TimeOrderedReads<GenerationRow> {
  const ofRange = Prisma.sql`account_id = ${scope.accountId}::uuid AND region = ${input.region}::"Region"
    AND created_at >= ${input.start} AND created_at < ${input.end}`;
  return {
    after: (after, limit) => database.$queryRaw<GenerationRow[]>`
      SELECT ${columns} FROM generation
       WHERE ${ofRange} ${after ? Prisma.sql`AND created_at > ${after}` : Prisma.empty}
       ORDER BY created_at LIMIT ${limit}`,
    at: (at, afterId, limit) => database.$queryRaw<GenerationRow[]>`
      SELECT ${columns} FROM generation
       WHERE ${ofRange} AND created_at = ${at} ${afterId ? Prisma.sql`AND id > ${afterId}::uuid` : Prisma.empty}
       ORDER BY id LIMIT ${limit}`,
  };
}

function add(groups: Map<string, UsageExportDay>, row: GenerationRow) {
  const provider = row.provider_used ?? "";
  const key = `${row.api_key_id ?? ""}\u0000${row.model_identifier}\u0000${provider}`;
  let group = groups.get(key);
  if (!group) {
    group = {
      date: row.day,
      apiKeyId: row.api_key_id,
      model: row.model_identifier,
      provider,
      generations: 0,
      succeeded: 0,
      failed: 0,
      canceled: 0,
      costMillis: 0,
    };
    groups.set(key, group);
  }
  group.generations += 1;
  if (row.status === "succeeded") group.succeeded += 1;
  else if (row.status === "failed") group.failed += 1;
  else if (row.status === "canceled") group.canceled += 1;
  if (CHARGED.has(row.status)) group.costMillis += Number(row.cost_millis);
}

/** Joined with NUL, the keys sort as (key, model, provider) tuples: NUL sorts before any character. */
function sorted(groups: Map<string, UsageExportDay>): UsageExportDay[] {
  return [...groups.keys()].sort().map((key) => groups.get(key) as UsageExportDay);
}
