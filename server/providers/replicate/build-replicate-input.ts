import "server-only";
import { applyInputMapping } from "../../catalog/input-mapping";
import { hostedInputMapping } from "../hosted-input";
import { inputValues } from "../provider-input";
import type { ProviderJob } from "../types";

// A job in the `input` shape of the Replicate model it runs on: the model's mapping from the
// catalog data (server/catalog/data), else Replicate's common FLUX / Veo field names.

export function buildReplicateInput(job: ProviderJob): Record<string, unknown> {
  return applyInputMapping(hostedInputMapping("replicate", job.model), inputValues(job));
}

/** `owner/name` without a pinned `:version`. */
export function modelName(providerModelId: string): string {
  return providerModelId.split(":")[0] ?? providerModelId;
}
