import "server-only";
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { DEFAULT_PROVIDER_TIMEOUT_MS, providerErrorFromResponse, sendProviderRequest } from "../http-errors";
import { PROVIDER_ANSWER_MAX_BYTES, type ProviderRequest } from "../provider-http";
import { ProviderError, type ProviderAdapter, type ProviderJob, type ProviderOutput, type SubmitResult } from "../types";
import { checkOpenAI } from "./check-openai";
import { buildOpenAIImageBody, isDallE, openAIOutputFormat } from "./build-openai-image-body";
import { deleteVideo, pollVideo, submitVideo, type OpenAIVideoCalls } from "./openai-video";

// OpenAI Images (https://platform.openai.com/docs/api-reference/images): one synchronous call
// returns the pictures as base64, so there is nothing to poll, cancel or call back. Input images
// go to /v1/images/edits as URL references (its JSON form); everything else to /generations,
// in the body each model takes (./build-openai-image-body.ts).
// Video models (Sora) go to the Videos API: polled, canceled by DELETE (./openai-video.ts).

export type OpenAIAdapterOptions = {
  token: string;
  /** https://api.openai.com, or a local fake. */
  baseUrl: string;
  /** Default: the model's own timeout for an Images call (it is the whole generation), 30 s for a Videos call. */
  timeoutMs?: number;
  /** A Sora MP4 past this is refused with ERR4003 (default PROVIDER_ANSWER_MAX_BYTES). */
  maxVideoBytes?: number;
};

const contentTypes: Record<string, string> = { png: "image/png", jpeg: "image/jpeg", webp: "image/webp" };

const imagesResponseSchema = z.object({
  created: z.number().optional(),
  data: z.array(z.object({ b64_json: z.string().min(1) })).min(1),
});

export function createOpenAIAdapter(options: OpenAIAdapterOptions): ProviderAdapter {
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const video: OpenAIVideoCalls = {
    baseUrl,
    token: options.token,
    timeoutMs: options.timeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS,
    maxVideoBytes: options.maxVideoBytes ?? PROVIDER_ANSWER_MAX_BYTES,
  };

  return {
    id: "openai",

    async submit(job: ProviderJob): Promise<SubmitResult> {
      if (job.model.type === "video") return submitVideo(video, job);
      const edit = job.inputFiles.length > 0;
      const body = buildOpenAIImageBody(job);
      const init: ProviderRequest = {
        method: "POST",
        headers: { Authorization: `Bearer ${options.token}`, "Content-Type": "application/json" },
        body: JSON.stringify(body),
      };
      const timeoutMs = options.timeoutMs ?? job.model.timeoutSeconds * 1000;
      const path = edit ? "/v1/images/edits" : "/v1/images/generations";
      const response = await sendProviderRequest("openai", `${baseUrl}${path}`, init, timeoutMs);
      if (!response.ok) throw providerErrorFromResponse("openai", response);

      const parsed = imagesResponseSchema.safeParse(response.body);
      if (!parsed.success)
        throw new ProviderError("openai", "ERR4002", "openai: the answer carries no images", `HTTP ${response.status} unexpected body`);
      // DALL·E answers PNG; GPT Image the format asked for.
      const contentType = isDallE(job.providerModelId) ? "image/png" : (contentTypes[openAIOutputFormat(job)] ?? "image/png");
      const outputs = parsed.data.data.map((image): ProviderOutput => ({
        kind: "bytes",
        bytes: Buffer.from(image.b64_json, "base64"),
        contentType,
      }));
      return {
        kind: "completed",
        predictionId: response.headers.get("x-request-id") ?? randomUUID(),
        result: { status: "succeeded", outputs, predictTimeSeconds: null },
      };
    },

    async poll(predictionId: string, job: ProviderJob) {
      if (job.model.type === "video") return pollVideo(video, predictionId);
      throw new ProviderError("openai", "ERR4002", "openai: Images calls are synchronous; there is nothing to poll", "synchronous");
    },

    // Images answers have no job to cancel; a video id is a Videos API job (ids start `video_`).
    async cancel(predictionId: string) {
      return predictionId.startsWith("video_") ? deleteVideo(video, predictionId) : false;
    },

    check: (providerModelIds) =>
      checkOpenAI(
        (path) =>
          sendProviderRequest(
            "openai",
            `${baseUrl}${path}`,
            { method: "GET", headers: { Authorization: `Bearer ${options.token}` } },
            video.timeoutMs,
          ),
        providerModelIds,
      ),
  };
}
