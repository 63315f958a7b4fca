import "server-only";
import type pg from "pg";
import type { OneAccount } from "../../base/account-scope";
import { ApiError } from "../../base/error-table";
import type { PlanName } from "../../plans/plan-limits";
import { toGenerationRecord, type RecordSource } from "./public-record";
import { cachedRecordSource, recordCacheEpoch, remember } from "./public-record-cache";
import { isGuid } from "../../base/guid";

// GET /v1/content/{id}, the route clients poll: one query on the pool, for just the columns of
// the record (not the stored request body), without a trip through Prisma's query compiler,
// which cost more CPU than the rest of the request. Lists left NULL read as [] (as Prisma reads
// them). Same record as toGenerationRecord of the Prisma row
// (tests/integration/read-generation-record.test.ts). A finished generation is then served from
// this process's record cache (record-cache.ts) until a change to its row is announced.

/** The record's columns of a `generation` row, as RecordSource names them. */
export const RECORD_COLUMNS = `
    id, account_id AS "accountId", media_kind::text AS "mediaKind", model_identifier AS "modelIdentifier", status::text AS status, prompt, ratio,
    output_format AS "outputFormat", output_number AS "outputNumber", duration_seconds AS "durationSeconds", resolution,
    generate_audio AS "generateAudio", coalesce(input_files, '{}') AS "inputFiles", coalesce(provider_order, '{}') AS "providerOrder", provider_used AS "providerUsed",
    prediction_id AS "predictionId", coalesce(output_keys, '{}') AS "outputKeys", coalesce(output_locations, '{}') AS "outputLocations",
    output_destination AS "outputDestination", output_retention_seconds AS "outputRetentionSeconds", output_link_ttl_seconds AS "outputLinkTtlSeconds",
    error_code AS "errorCode", error_message AS "errorMessage",
    metrics_total_time AS "metricsTotalTime", metrics_predict_time AS "metricsPredictTime", started_at AS "startedAt",
    completed_at AS "completedAt", removed_at AS "removedAt", deadline_at AS "deadlineAt", created_at AS "createdAt"`;

const SELECT_RECORD = `SELECT ${RECORD_COLUMNS} FROM generation WHERE id = $1 AND account_id = $2`;

/** `pool` is the process's sqlPool() (not Prisma: see above); the plan decides the record's file links. */
export async function readGenerationRecord(pool: pg.Pool, scope: OneAccount, input: { generationId: string; plan: PlanName }) {
  const { accountId } = scope;
  const { generationId, plan } = input;
  if (!isGuid(generationId)) throw new ApiError("ERR1006", "No generation with this id.", { generation_id: generationId });
  const cached = cachedRecordSource(generationId, accountId);
  if (cached) return toGenerationRecord(cached, plan);
  const epoch = recordCacheEpoch();
  const { rows } = await pool.query<RecordSource>({
    name: "read-generation-record",
    text: SELECT_RECORD,
    values: [generationId, accountId],
  });
  const row = rows[0];
  if (!row) throw new ApiError("ERR1006", "No generation with this id.", { generation_id: generationId });
  remember(row, epoch);
  return toGenerationRecord(row, plan);
}
