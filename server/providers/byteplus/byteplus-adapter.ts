import "server-only";
import { createHash } from "node:crypto";
import { DEFAULT_PROVIDER_TIMEOUT_MS, providerErrorFromResponse, sendProviderRequest, type ProviderResponse } from "../http-errors";
import { ProviderError, type ProviderAdapter, type ProviderJob, type SubmitResult } from "../types";
import { buildByteplusImageBody, buildByteplusVideoBody } from "./build-byteplus-input";
import { byteplusCreatedSchema, byteplusImages, byteplusTaskResult, byteplusTaskSchema, notUnderstood } from "./byteplus-answer";
import { checkByteplus } from "./check-byteplus";

// BytePlus ModelArk (https://docs.byteplus.com/en/docs/ModelArk/1520757 video generation API,
// /1541523 image generation API, /1299023 error codes), every call with `Authorization: Bearer
// <ARK_API_KEY>` under /api/v3:
// - Seedream images: POST /images/generations answers the pictures in the same call (b64_json).
//   A cancel aborts that call.
// - Seedance videos: POST /contents/generations/tasks answers `{id}`; GET …/tasks/{id} is polled
//   until succeeded, failed, expired or cancelled; DELETE …/tasks/{id} cancels a queued task.
// ModelArk's task callback (callback_url) is not signed, so it is not used: tasks are polled.

export type ByteplusAdapterOptions = {
  apiKey: string;
  /** https://ark.ap-southeast.bytepluses.com/api/v3, or a local fake. */
  baseUrl: string;
  timeoutMs?: number;
  /** An image answer past this fails the attempt with ERR4003 (default BYTEPLUS_ANSWER_MAX_BYTES). */
  maxAnswerBytes?: number;
};

/** Four 2K JPEGs in base64 fit with room to spare. */
export const BYTEPLUS_ANSWER_MAX_BYTES = 48 * 1024 * 1024;

/** Images are named before the call answers, so a cancel can reach it; the same for a retried step. */
export function byteplusImagePredictionId(job: Pick<ProviderJob, "generationId" | "attempt">): string {
  return `byteplus-image-${createHash("sha256").update(`${job.generationId}\u0000${job.attempt}`).digest("hex").slice(0, 32)}`;
}

export function createByteplusAdapter(options: ByteplusAdapterOptions): ProviderAdapter {
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const timeoutMs = options.timeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS;
  const maxAnswerBytes = options.maxAnswerBytes ?? BYTEPLUS_ANSWER_MAX_BYTES;
  const inFlight = new Map<string, AbortController>();

  function call(
    method: string,
    path: string,
    body?: unknown,
    extra: { signal?: AbortSignal; timeoutMs?: number } = {},
  ): Promise<ProviderResponse> {
    const headers: Record<string, string> = { Authorization: `Bearer ${options.apiKey}`, Accept: "application/json" };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const request = { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: extra.signal, maxAnswerBytes };
    return sendProviderRequest("byteplus", `${baseUrl}${path}`, request, extra.timeoutMs ?? timeoutMs);
  }

  const taskPath = (id: string) => `/contents/generations/tasks/${encodeURIComponent(id)}`;

  async function generateImages(job: ProviderJob): Promise<SubmitResult> {
    const predictionId = byteplusImagePredictionId(job);
    const controller = new AbortController();
    inFlight.get(predictionId)?.abort();
    inFlight.set(predictionId, controller);
    try {
      const outputs = [];
      // One picture per call: sequential generation is off, so each call is one image.
      for (let index = 0; index < job.outputCount; index++) {
        const body = buildByteplusImageBody({ ...job, seed: job.seed + index });
        const response = await call("POST", "/images/generations", body, {
          signal: controller.signal,
          timeoutMs: options.timeoutMs ?? job.model.timeoutSeconds * 1000,
        });
        if (!response.ok) throw providerErrorFromResponse("byteplus", response);
        outputs.push(...byteplusImages(response.status, response.body));
      }
      return { kind: "completed", predictionId, result: { status: "succeeded", outputs, predictTimeSeconds: null } };
    } catch (error) {
      if (controller.signal.aborted) return { kind: "completed", predictionId, result: { status: "canceled" } };
      throw error;
    } finally {
      if (inFlight.get(predictionId) === controller) inFlight.delete(predictionId);
    }
  }

  return {
    id: "byteplus",

    predictionIdFor: (job) =>
      job.model.type === "image" ? byteplusImagePredictionId(job) : `byteplus-task-${job.generationId}-${job.attempt}`,

    async submit(job: ProviderJob): Promise<SubmitResult> {
      if (job.model.type === "image") return generateImages(job);
      const response = await call("POST", "/contents/generations/tasks", buildByteplusVideoBody(job));
      if (!response.ok) throw providerErrorFromResponse("byteplus", response);
      const created = byteplusCreatedSchema.safeParse(response.body);
      if (!created.success) throw notUnderstood(response.status, "the create answer has no task id");
      return { kind: "accepted", predictionId: created.data.id };
    },

    async poll(predictionId: string) {
      if (predictionId.startsWith("byteplus-image-")) {
        throw new ProviderError(
          "byteplus",
          "ERR4002",
          "byteplus: image generation is synchronous; there is nothing to poll",
          "synchronous",
        );
      }
      const response = await call("GET", taskPath(predictionId));
      // Our key, the rate limit or an outage: the task may still be fine, so the run asks again.
      if (transientStatus(response.status)) throw providerErrorFromResponse("byteplus", response);
      if (!response.ok) return { status: "failed", error: providerErrorFromResponse("byteplus", response) };
      const task = byteplusTaskSchema.safeParse(response.body);
      // ModelArk answered, in words we do not know: asking again would not help, so the attempt ends.
      if (!task.success) return { status: "failed", error: notUnderstood(response.status, "the answer is not a task") };
      return byteplusTaskResult(task.data);
    },

    async cancel(predictionId: string): Promise<boolean> {
      const controller = inFlight.get(predictionId);
      if (controller) {
        controller.abort();
        return true;
      }
      if (predictionId.startsWith("byteplus-")) return false;
      try {
        return (await call("DELETE", taskPath(predictionId))).ok;
      } catch {
        return false;
      }
    },

    check: (providerModelIds) => checkByteplus((path) => call("GET", path), providerModelIds),
  };
}

function transientStatus(status: number): boolean {
  return status === 401 || status === 403 || status === 408 || status === 429 || status >= 500;
}
