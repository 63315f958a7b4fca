import "server-only";
import { applyInputMapping } from "../../catalog/input-mapping";
import { hostedInputMapping, hostedModelId } from "../hosted-input";
import { inputValues } from "../provider-input";
import type { ProviderJob } from "../types";

// A job as the request body of the fal endpoint it runs on, and which endpoint that is: the
// model's mapping from the catalog data (server/catalog/data), else fal's common field names.

/** The endpoint id the job is submitted to, e.g. `fal-ai/flux/schnell`. */
export function falEndpointId(job: ProviderJob): string {
  return hostedModelId("fal", job);
}

/** The queue addresses requests by app (`owner/app`), without the endpoint's sub-path. */
export function falAppId(endpointId: string): string {
  return endpointId.split("/").slice(0, 2).join("/");
}

export function buildFalInput(job: ProviderJob): Record<string, unknown> {
  return applyInputMapping(hostedInputMapping("fal", job.model), inputValues(job));
}
