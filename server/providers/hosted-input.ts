import type { ModelDefinition, ProviderId } from "../catalog/index";
import { listProviders } from "../catalog/index";
import type { InputMapping } from "../catalog/input-mapping";
import { asText } from "../catalog/input-mapping";
import type { ProviderJob } from "./types";

// Hosted-model providers (Replicate, fal): which input mapping and which endpoint a job takes,
// read from the catalog's data.

/** The model's own mapping for the provider, else the provider's default for its media type. */
export function hostedInputMapping(provider: ProviderId, model: ModelDefinition): InputMapping {
  const own = model.providerInputs[provider];
  if (own) return own;
  const defaults = listProviders().find((entry) => entry.id === provider)?.defaultInput;
  if (!defaults) throw new Error(`${provider} has no default input mapping`);
  return defaults[model.type];
}

/** The provider model id for this job: a by-value endpoint (e.g. a resolution tier's) where the data names one. */
export function hostedModelId(provider: ProviderId, job: ProviderJob): string {
  const by = job.model.providerModelBy[provider];
  if (!by) return job.providerModelId;
  const value = by.from === "resolution" ? job.resolution : by.from === "duration" ? job.durationSeconds : job.generateAudio;
  return by.map[asText(value)] ?? job.providerModelId;
}
