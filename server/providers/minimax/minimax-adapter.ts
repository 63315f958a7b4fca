import "server-only";
import { randomUUID } from "node:crypto";
import { DEFAULT_PROVIDER_TIMEOUT_MS, sendProviderRequest, type ProviderResponse } from "../http-errors";
import {
  ProviderError,
  type ProviderAdapter,
  type ProviderJob,
  type ProviderOutput,
  type ProviderResult,
  type SubmitResult,
} from "../types";
import { imageGenerationBody, videoGenerationBody } from "./build-minimax-request";
import { checkMiniMax } from "./check-minimax";
import {
  baseRespOf,
  imageGenerationSchema,
  MiniMaxAnswerNotUnderstood,
  minimaxError,
  notUnderstood,
  readMinimaxAnswer,
  retrieveFileSchema,
  videoQuerySchema,
  videoTaskSchema,
} from "./minimax-answers";

// MiniMax's HTTP API (https://platform.minimax.io/docs/api-reference): Hailuo videos are async
// tasks (POST /v1/video_generation → task_id, GET /v1/query/video_generation until Success, then
// GET /v1/files/retrieve for the file's download_url); image-01 answers in the same call. Bearer
// auth. MiniMax publishes no cancel, and its callbacks carry no signature, so none is requested:
// tasks are polled.

export type MiniMaxAdapterOptions = {
  token: string;
  /** https://api.minimax.io, or a local fake. */
  baseUrl: string;
  /** Per call; image calls default to the model's own timeout, since that one call is the whole generation. */
  timeoutMs?: number;
};

export function createMiniMaxAdapter(options: MiniMaxAdapterOptions): ProviderAdapter {
  const baseUrl = options.baseUrl.replace(/\/+$/, "");

  function call(method: string, path: string, body: unknown, timeoutMs: number): Promise<ProviderResponse> {
    const headers: Record<string, string> = { Authorization: `Bearer ${options.token}` };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    return sendProviderRequest(
      "minimax",
      `${baseUrl}${path}`,
      { method, headers, body: body === undefined ? undefined : JSON.stringify(body) },
      timeoutMs,
    );
  }

  async function generateImages(job: ProviderJob): Promise<SubmitResult> {
    const response = await call(
      "POST",
      "/v1/image_generation",
      imageGenerationBody(job),
      options.timeoutMs ?? job.model.timeoutSeconds * 1000,
    );
    const parsed = imageGenerationSchema.safeParse(readMinimaxAnswer(response));
    if (!parsed.success) throw notUnderstood(response.status, "not an image_generation answer");
    const urls = parsed.data.data?.image_urls ?? [];
    const base64 = parsed.data.data?.image_base64 ?? [];
    const outputs: ProviderOutput[] = [
      ...urls.map((url): ProviderOutput => ({ kind: "url", url, contentType: "image/jpeg" })),
      ...base64.map((data): ProviderOutput => ({ kind: "bytes", bytes: Buffer.from(data, "base64"), contentType: "image/jpeg" })),
    ];
    if (outputs.length === 0) {
      // failed_count: the pictures its content safety held back.
      if (Number(parsed.data.metadata?.failed_count ?? 0) > 0) {
        throw new ProviderError(
          "minimax",
          "ERR4005",
          "minimax: every image was withheld by content moderation",
          `HTTP ${response.status} failed_count=${String(parsed.data.metadata?.failed_count)}`,
        );
      }
      throw notUnderstood(response.status, "no images");
    }
    return {
      kind: "completed",
      predictionId: parsed.data.id ?? randomUUID(),
      result: { status: "succeeded", outputs, predictTimeSeconds: null },
    };
  }

  async function startVideo(job: ProviderJob): Promise<SubmitResult> {
    const response = await call("POST", "/v1/video_generation", videoGenerationBody(job), options.timeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS);
    const parsed = videoTaskSchema.safeParse(readMinimaxAnswer(response));
    if (!parsed.success) throw notUnderstood(response.status, "no task_id");
    return { kind: "accepted", predictionId: parsed.data.task_id };
  }

  async function downloadUrl(fileId: string): Promise<string> {
    const response = await call(
      "GET",
      `/v1/files/retrieve?file_id=${encodeURIComponent(fileId)}`,
      undefined,
      options.timeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS,
    );
    const parsed = retrieveFileSchema.safeParse(readMinimaxAnswer(response));
    if (!parsed.success) throw notUnderstood(response.status, "no file download_url");
    return parsed.data.file.download_url;
  }

  async function pollTask(taskId: string): Promise<ProviderResult> {
    const response = await call(
      "GET",
      `/v1/query/video_generation?task_id=${encodeURIComponent(taskId)}`,
      undefined,
      options.timeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS,
    );
    const failed = taskFailure(response);
    if (failed) return { status: "failed", error: failed };
    const parsed = videoQuerySchema.safeParse(readMinimaxAnswer(response));
    if (!parsed.success) throw notUnderstood(response.status, "not a video task status");
    if (parsed.data.status !== "Success") return { status: "running" };
    const fileId = parsed.data.file_id;
    if (fileId === null || fileId === undefined || fileId === "") throw notUnderstood(response.status, "Success without file_id");
    const url = await downloadUrl(String(fileId));
    return { status: "succeeded", outputs: [{ kind: "url", url, contentType: "video/mp4" }], predictTimeSeconds: null };
  }

  return {
    id: "minimax",

    submit(job: ProviderJob): Promise<SubmitResult> {
      return job.model.type === "image" ? generateImages(job) : startVideo(job);
    },

    async poll(taskId: string): Promise<ProviderResult> {
      try {
        return await pollTask(taskId);
      } catch (error) {
        // The run asks again after a thrown poll (rate limits, outages); an answer not understood
        // or a refusal that another ask would not change (2013 unknown task) ends the attempt.
        if (error instanceof MiniMaxAnswerNotUnderstood || (error instanceof ProviderError && error.code === "ERR4005"))
          return { status: "failed", error };
        throw error;
      }
    },

    async cancel(): Promise<boolean> {
      // MiniMax publishes no way to stop a task; the run stops waiting for it.
      return false;
    },

    check: (providerModelIds) =>
      checkMiniMax((path) => call("GET", path, undefined, options.timeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS), providerModelIds),
  };
}

/** A task MiniMax reports as `Fail`: its base_resp says why (1026/1027 moderation → ERR4005). */
function taskFailure(response: ProviderResponse): ProviderError | null {
  if (!response.ok || !isRecord(response.body) || response.body.status !== "Fail") return null;
  const baseResp = baseRespOf(response.body);
  if (baseResp && baseResp.status_code !== 0) return minimaxError(baseResp.status_code, baseResp.status_msg, response.status);
  return new ProviderError(
    "minimax",
    "ERR4002",
    `minimax: the task failed${baseResp?.status_msg ? ` (${baseResp.status_msg})` : ""}`,
    `HTTP ${response.status} status Fail`,
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
