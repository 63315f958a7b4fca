import "server-only";
import { findModel } from "../../catalog";
import type { ProviderId } from "../../catalog/providers";
import type { Generation } from "../../generated/prisma/client";
import { env } from "../../env";
import type { ProviderJob } from "../../providers/types";
import { seedFor } from "../start-generation";

/** The columns of a generation a provider job is made from. */
export type JobSource = Pick<
  Generation,
  "id" | "modelIdentifier" | "prompt" | "ratio" | "outputFormat" | "outputNumber" | "durationSeconds" | "resolution" | "generateAudio" | "inputFiles" | "inputFileLastContent"
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
