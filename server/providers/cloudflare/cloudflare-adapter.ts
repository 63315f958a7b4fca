import "server-only";
import { createHash } from "node:crypto";
import { DEFAULT_PROVIDER_TIMEOUT_MS, sendProviderRequest, type ProviderResponse } from "../http-errors";
import { ProviderError, type ProviderAdapter, type ProviderJob, type SubmitResult } from "../types";
import { buildCloudflareInput } from "./build-cloudflare-input";
import { checkCloudflare } from "./check-cloudflare";
import { cloudflareFailure, cloudflareImage } from "./cloudflare-answer";

// Cloudflare Workers AI (https://developers.cloudflare.com/api/resources/ai/methods/run/): one
// synchronous POST /client/v4/accounts/{account_id}/ai/run/{model} per picture, Bearer token, the
// picture in the answer as base64. There is no job to poll and no callback; a cancel aborts the
// call still in flight (Cloudflare counts an aborted request as error 3008).

export type CloudflareAdapterOptions = {
  token: string;
  accountId: string;
  /** https://api.cloudflare.com/client/v4, or a local fake. */
  baseUrl: string;
  /** Default: the model's own timeout, since these calls are the whole generation. */
  timeoutMs?: number;
  /** An answer past this fails the attempt with ERR4003 (default CLOUDFLARE_ANSWER_MAX_BYTES). */
  maxAnswerBytes?: number;
};

/** A megapixel JPEG is well under 2 MiB; base64 adds a third. */
export const CLOUDFLARE_ANSWER_MAX_BYTES = 16 * 1024 * 1024;

/** Named before the call answers, so a cancel can reach it; the same for a retried step. */
export function cloudflarePredictionId(job: Pick<ProviderJob, "generationId" | "attempt">): string {
  return `cloudflare-${createHash("sha256").update(`${job.generationId}\u0000${job.attempt}`).digest("hex").slice(0, 32)}`;
}

export function createCloudflareAdapter(options: CloudflareAdapterOptions): ProviderAdapter {
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const maxAnswerBytes = options.maxAnswerBytes ?? CLOUDFLARE_ANSWER_MAX_BYTES;
  const inFlight = new Map<string, AbortController>();

  function run(job: ProviderJob, index: number, signal: AbortSignal, timeoutMs: number): Promise<ProviderResponse> {
    // The model id keeps its @ and slashes: they are path segments of the published route.
    const url = `${baseUrl}/accounts/${encodeURIComponent(options.accountId)}/ai/run/${job.providerModelId}`;
    const headers = { Authorization: `Bearer ${options.token}`, "Content-Type": "application/json" };
    return sendProviderRequest(
      "cloudflare",
      url,
      { method: "POST", headers, body: JSON.stringify(buildCloudflareInput(job, index)), signal, maxAnswerBytes },
      timeoutMs,
    );
  }

  return {
    id: "cloudflare",

    predictionIdFor: cloudflarePredictionId,

    async submit(job: ProviderJob): Promise<SubmitResult> {
      const predictionId = cloudflarePredictionId(job);
      const controller = new AbortController();
      inFlight.get(predictionId)?.abort();
      inFlight.set(predictionId, controller);
      const timeoutMs = options.timeoutMs ?? job.model.timeoutSeconds * 1000;
      try {
        const outputs = [];
        // One picture per call: the model has no count field.
        for (let index = 0; index < job.outputCount; index++) {
          const response = await run(job, index, controller.signal, timeoutMs);
          if (!response.ok) throw cloudflareFailure(response);
          outputs.push(cloudflareImage(response));
        }
        return { kind: "completed", predictionId, result: { status: "succeeded", outputs, predictTimeSeconds: null } };
      } catch (error) {
        if (controller.signal.aborted) return { kind: "completed", predictionId, result: { status: "canceled" } };
        throw error;
      } finally {
        if (inFlight.get(predictionId) === controller) inFlight.delete(predictionId);
      }
    },

    async poll() {
      throw new ProviderError(
        "cloudflare",
        "ERR4002",
        "cloudflare: Workers AI runs are synchronous; there is nothing to poll",
        "synchronous",
      );
    },

    async cancel(predictionId: string) {
      const controller = inFlight.get(predictionId);
      if (!controller) return false;
      controller.abort();
      return true;
    },

    check: (providerModelIds) =>
      checkCloudflare((path) => {
        const url = `${baseUrl}/accounts/${encodeURIComponent(options.accountId)}${path}`;
        return sendProviderRequest(
          "cloudflare",
          url,
          { method: "GET", headers: { Authorization: `Bearer ${options.token}` } },
          options.timeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS,
        );
      }, providerModelIds),
  };
}
