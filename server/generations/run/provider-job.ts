import "server-only";
import { findModel } from "../../catalog";
import type { ProviderId } from "../../catalog/providers";
import type { Generation } from "../../base/generated/prisma/client";
import { env } from "../../base/env";
import type { ProviderJob } from "../../providers/types";
import { seedFor } from "../start-generation";
import { providerCostMicros } from "../../catalog/pricing";

/** The columns of a generation a provider job is made from. */
export type JobSource = Pick<
  Generation,
  | "id"
  | "modelIdentifier"
  | "prompt"
  | "ratio"
  | "outputFormat"
  | "outputNumber"
  | "durationSeconds"
  | "resolution"
  | "generateAudio"
  | "inputFiles"
  | "inputFileLastContent"
>;

/** A stored generation as the job one provider receives. */
export function providerJobFor(row: JobSource, provider: ProviderId, attempt: number): ProviderJob {
  const model = findModel(row.modelIdentifier);
  if (!model) throw new Error(`generation ${row.id} names unknown model ${row.modelIdentifier}`);
  const providerModelId = model.providerModelIds[provider];
  if (!providerModelId) throw new Error(`${provider} does not serve ${model.identifier}`);
  const base = env().APP_URL ?? `http://127.0.0.1:${env().PORT}`;
  return {
    generationId: row.id,
    attempt,
    model,
    providerModelId,
    prompt: row.prompt,
    ratio: row.ratio ?? model.ratios[0],
    outputFormat: row.outputFormat ?? model.formats[0],
    outputCount: row.outputNumber,
    durationSeconds: row.durationSeconds,
    resolution: row.resolution,
    generateAudio: row.generateAudio ?? false,
    inputFiles: row.inputFiles,
    inputFileLastContent: row.inputFileLastContent,
    seed: seedFor(row.id),
    callbackUrl: `${base}/api/providers/${provider}/callback`,
  };
}

/** What the provider charges us for `outputs` of this generation (USD text, the catalog's cost for it); null when the catalog has none. */
export function attemptProviderCost(row: JobSource, provider: ProviderId, outputs: number): string | null {
  const model = findModel(row.modelIdentifier);
  if (!model || outputs < 1) return null;
  const micros = providerCostMicros(model, provider, {
    count: outputs,
    ratio: row.ratio ?? undefined,
    durationSeconds: row.durationSeconds ?? undefined,
    resolution: row.resolution ?? undefined,
    audio: row.generateAudio ?? false,
  });
  return micros === null ? null : (micros / 1_000_000).toFixed(6);
}
