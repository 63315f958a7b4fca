import "server-only";
import type { Generation } from "../../base/generated/prisma/client";
import type { ErrorCode } from "../../base/error-table";
import type { PlanName } from "../../plans/plan-limits";
import { outputFiles } from "./output-files";

// A generation row as its public record (null for what is not known yet, [] for empty
// lists, output URLs signed and expiring with the plan's output retention). The error fields
// appear only on failed records and on those canceled at their deadline (ERR4006); video records
// add their settings.

export type GenerationRecord = ReturnType<typeof toGenerationRecord>;

/** The columns a record is made from (read-generation-record.ts reads just these). */
export type RecordSource = Pick<
  Generation,
  | "id"
  | "accountId"
  | "mediaKind"
  | "modelIdentifier"
  | "status"
  | "prompt"
  | "ratio"
  | "outputFormat"
  | "outputNumber"
  | "durationSeconds"
  | "resolution"
  | "generateAudio"
  | "inputFiles"
  | "providerOrder"
  | "providerUsed"
  | "predictionId"
  | "outputKeys"
  | "outputLocations"
  | "outputDestination"
  | "outputRetentionSeconds"
  | "outputLinkTtlSeconds"
  | "errorCode"
  | "errorMessage"
  | "metricsTotalTime"
  | "metricsPredictTime"
  | "startedAt"
  | "completedAt"
  | "removedAt"
  | "deadlineAt"
  | "createdAt"
>;

const seconds = (value: number | null) => (value === null ? null : Math.round(value * 1000) / 1000);

export function toGenerationRecord(row: RecordSource, plan: PlanName) {
  const files =
    row.status === "succeeded" && !row.removedAt
      ? outputFiles(row, plan)
      : { urls: [], locations: [], linkExpiresAt: [], filesExpireAt: null };
  return {
    account_id: row.accountId,
    generation_id: row.id,
    model_identifier: row.modelIdentifier,
    generation_status: row.status,
    generation_prompt: row.prompt,
    generation_ratio: row.ratio,
    generation_output_format: row.outputFormat,
    generation_output_number: row.outputNumber,
    generation_provider_order: row.providerOrder,
    generation_created_at: row.createdAt.toISOString(),
    generation_input_file: row.inputFiles,
    generation_output_file: files.urls,
    generation_output_location: files.locations,
    generation_output_link_expires_at: files.linkExpiresAt,
    generation_output_expires_at: files.filesExpireAt,
    generation_provider_used: row.providerUsed,
    generation_prediction_id: row.predictionId,
    generation_started_at: row.startedAt?.toISOString() ?? null,
    generation_completed_at: row.completedAt?.toISOString() ?? null,
    generation_metrics_total_time: seconds(row.metricsTotalTime),
    generation_metrics_predict_time: seconds(row.metricsPredictTime),
    generation_deadline_at: row.deadlineAt?.toISOString() ?? null,
    ...(row.status === "failed" || (row.status === "canceled" && row.errorCode)
      ? { generation_error: row.errorMessage, generation_error_code: row.errorCode as ErrorCode | null }
      : {}),
    ...videoFields(row),
    ...(row.removedAt ? { generation_removed: "true" as const } : {}),
  };
}

type VideoFields = { generation_duration?: number | null; generation_resolution?: string | null; generation_generate_audio?: boolean };

/**
 * Video records carry the duration, resolution and audio setting they were made with, from their
 * columns (the create stores them, defaults applied); a model without audio never generates it.
 */
function videoFields(row: RecordSource): VideoFields {
  if (row.mediaKind !== "video") return {};
  return {
    generation_duration: row.durationSeconds,
    generation_resolution: row.resolution,
    generation_generate_audio: row.generateAudio ?? false,
  };
}
