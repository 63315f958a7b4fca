import type { ProviderJob } from "../types";

// Each model's published input (developers.cloudflare.com/workers-ai/models/<model>/). One picture
// per call: none of them has a count field, so output `index` runs with seed + index.

/** FLUX.1 [schnell]'s default step count, the one the catalog price assumes (its maximum is 8). */
const FLUX_SCHNELL_STEPS = 4;
/** Lucid Origin's default step count (1 to 40), the one the catalog price assumes. */
const LUCID_ORIGIN_STEPS = 4;

/** Lucid Origin takes width and height (up to 2500): about a megapixel per ratio, at most 3×2 tiles of 512. */
export const lucidOriginSizes: Record<string, { width: number; height: number }> = {
  "1:1": { width: 1024, height: 1024 },
  "16:9": { width: 1280, height: 720 },
  "9:16": { width: 720, height: 1280 },
  "4:3": { width: 1152, height: 864 },
  "3:4": { width: 864, height: 1152 },
  "3:2": { width: 1248, height: 832 },
  "2:3": { width: 832, height: 1248 },
};

export function buildCloudflareInput(job: ProviderJob, index: number): Record<string, unknown> {
  const prompt = job.prompt ?? "";
  // Both schemas take a non-negative integer seed; kept within 32 bits.
  const seed = (job.seed + index) % 2 ** 32;
  switch (job.providerModelId) {
    case "@cf/leonardo/lucid-origin":
      return { prompt, ...(lucidOriginSizes[job.ratio] ?? lucidOriginSizes["1:1"]), num_steps: LUCID_ORIGIN_STEPS, seed };
    default:
      // FLUX.1 [schnell]: no size field (1024×1024).
      return { prompt, steps: FLUX_SCHNELL_STEPS, seed };
  }
}
