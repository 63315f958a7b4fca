import { randomUUID } from "node:crypto";
import { findModel, type ProviderId } from "@/server/catalog";
import type { ProviderJob } from "@/server/providers/types";

// A ProviderJob as the generation run would build it: the catalog model's defaults, in the given
// provider's model id, with whatever a test wants to change.

export function providerJob(modelIdentifier: string, provider: ProviderId, overrides: Partial<ProviderJob> = {}): ProviderJob {
  const model = findModel(modelIdentifier);
  const providerModelId = model?.providerModelIds[provider];
  if (!model || !providerModelId) throw new Error(`${provider} does not serve ${modelIdentifier}`);
  return {
    generationId: randomUUID(),
    attempt: 1,
    model,
    providerModelId,
    prompt: "a lighthouse on a cliff at dusk",
    ratio: model.ratios[0],
    outputFormat: model.formats[0],
    outputCount: 1,
    durationSeconds: model.type === "video" ? model.defaultDuration : null,
    resolution: model.type === "video" ? model.defaultResolution : null,
    generateAudio: false,
    inputFiles: model.inputFiles?.required ? ["https://images.example.test/start.png"] : [],
    inputFileLastContent: null,
    seed: 1_234_567,
    // Port 9 (discard) refuses at once: webhooks a test does not want go nowhere, quickly.
    callbackUrl: "http://127.0.0.1:9/api/providers/callback",
    ...overrides,
  };
}
