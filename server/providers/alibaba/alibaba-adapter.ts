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
import {
  DashscopeAnswerNotUnderstood,
  dashscopeError,
  imageEditAnswerSchema,
  readDashscopeAnswer,
  taskCreatedSchema,
  taskSchema,
  type DashscopeTask,
} from "./alibaba-answers";
import { imageEditBody, imageSynthesisBody, isImageEdit, videoSynthesisBody } from "./build-alibaba-request";
import { checkAlibaba } from "./check-alibaba";

// Alibaba Cloud Model Studio's DashScope HTTP API (https://www.alibabacloud.com/help/en/model-studio/text-to-video-api-reference
// and its image-to-video / text-to-image / Qwen-Image pages): every Wan and Qwen-Image job is an
// async task, created with `X-DashScope-Async: enable` and read at GET /api/v1/tasks/{task_id}
// until SUCCEEDED (video_url, or results[].url), FAILED (output.code) or CANCELED. Bearer auth.
// POST /api/v1/tasks/{task_id}/cancel stops a task still PENDING. The HTTP API sends no signed
// callbacks, so tasks are polled. Qwen-Image-Edit is the exception: one synchronous call whose
// answer names the edited picture.

export type AlibabaAdapterOptions = {
  apiKey: string;
  /** A regional root: https://dashscope-intl.aliyuncs.com (Singapore), dashscope-us (Virginia), dashscope (Beijing), or a local fake. */
  baseUrl: string;
  timeoutMs?: number;
};

export function createAlibabaAdapter(options: AlibabaAdapterOptions): ProviderAdapter {
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const timeoutMs = options.timeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS;

  function call(method: string, path: string, body?: unknown, async = true): Promise<ProviderResponse> {
    const headers: Record<string, string> = { Authorization: `Bearer ${options.apiKey}` };
    if (body !== undefined) Object.assign(headers, { "Content-Type": "application/json" }, async ? { "X-DashScope-Async": "enable" } : {});
    return sendProviderRequest(
      "alibaba",
      `${baseUrl}${path}`,
      { method, headers, body: body === undefined ? undefined : JSON.stringify(body) },
      timeoutMs,
    );
  }

  async function pollTask(taskId: string, job: ProviderJob): Promise<ProviderResult> {
    const response = await call("GET", `/api/v1/tasks/${encodeURIComponent(taskId)}`);
    const parsed = taskSchema.safeParse(readDashscopeAnswer(response));
    if (!parsed.success) throw new DashscopeAnswerNotUnderstood(response.status, "not a task status");
    return taskResult(parsed.data.output, job, response.status);
  }

  async function editImage(job: ProviderJob): Promise<SubmitResult> {
    const response = await call("POST", "/api/v1/services/aigc/multimodal-generation/generation", imageEditBody(job), false);
    const parsed = imageEditAnswerSchema.safeParse(readDashscopeAnswer(response));
    if (!parsed.success) throw new DashscopeAnswerNotUnderstood(response.status, "no output.choices");
    const urls = parsed.data.output.choices.flatMap((choice) => choice.message.content.flatMap((part) => (part.image ? [part.image] : [])));
    if (urls.length === 0) throw new DashscopeAnswerNotUnderstood(response.status, "no image in the answer");
    const outputs = urls.map((url): ProviderOutput => ({ kind: "url", url, contentType: "image/png" }));
    return {
      kind: "completed",
      predictionId: parsed.data.request_id ?? randomUUID(),
      result: { status: "succeeded", outputs, predictTimeSeconds: null },
    };
  }

  return {
    id: "alibaba",

    async submit(job: ProviderJob): Promise<SubmitResult> {
      if (isImageEdit(job)) return editImage(job);
      const path =
        job.model.type === "image"
          ? "/api/v1/services/aigc/text2image/image-synthesis"
          : "/api/v1/services/aigc/video-generation/video-synthesis";
      const response = await call("POST", path, job.model.type === "image" ? imageSynthesisBody(job) : videoSynthesisBody(job));
      const parsed = taskCreatedSchema.safeParse(readDashscopeAnswer(response));
      if (!parsed.success) throw new DashscopeAnswerNotUnderstood(response.status, "no output.task_id");
      return { kind: "accepted", predictionId: parsed.data.output.task_id };
    },

    async poll(taskId: string, job: ProviderJob): Promise<ProviderResult> {
      try {
        return await pollTask(taskId, job);
      } catch (error) {
        // The run asks again after a thrown poll (rate limits, outages); an answer not understood
        // or a refusal another ask would not change ends the attempt.
        if (error instanceof DashscopeAnswerNotUnderstood || (error instanceof ProviderError && error.code === "ERR4005"))
          return { status: "failed", error };
        throw error;
      }
    },

    async cancel(taskId: string): Promise<boolean> {
      // Only a PENDING task can be canceled; a running one answers UnsupportedOperation.
      try {
        const response = await call("POST", `/api/v1/tasks/${encodeURIComponent(taskId)}/cancel`, {});
        return response.ok;
      } catch {
        return false;
      }
    },

    check: (providerModelIds) => checkAlibaba((path) => call("GET", path), providerModelIds),
  };
}

/** A task's state as our result. */
function taskResult(task: DashscopeTask, job: ProviderJob, httpStatus: number): ProviderResult {
  switch (task.task_status) {
    case "PENDING":
    case "RUNNING":
    case "SUSPENDED":
      return { status: "running" };
    case "CANCELED":
      return { status: "canceled" };
    case "UNKNOWN":
      // Unknown or expired (task ids live 24 hours): no answer will ever come for it.
      return {
        status: "failed",
        error: new ProviderError("alibaba", "ERR4002", "alibaba: the task is unknown or expired", `HTTP ${httpStatus} UNKNOWN`),
      };
    case "FAILED":
      return { status: "failed", error: dashscopeError(task.code ?? "InternalError", task.message ?? "the task failed", httpStatus) };
    case "SUCCEEDED": {
      // A finished task whose outputs cannot be read will not change: it ends the attempt.
      const outputs = outputsOf(task, job, httpStatus);
      return outputs instanceof ProviderError
        ? { status: "failed", error: outputs }
        : { status: "succeeded", outputs, predictTimeSeconds: null };
    }
  }
}

function outputsOf(task: DashscopeTask, job: ProviderJob, httpStatus: number): ProviderOutput[] | ProviderError {
  if (job.model.type === "video") {
    if (!task.video_url) return new DashscopeAnswerNotUnderstood(httpStatus, "SUCCEEDED without video_url");
    return [{ kind: "url", url: task.video_url, contentType: "video/mp4" }];
  }
  const results = task.results ?? [];
  const outputs = results.flatMap((result): ProviderOutput[] =>
    "url" in result && typeof result.url === "string" ? [{ kind: "url", url: result.url, contentType: "image/png" }] : [],
  );
  if (outputs.length > 0) return outputs;
  // Every picture refused: results carry each one's code (DataInspectionFailed for moderation).
  const refused = results.find((result) => "code" in result && typeof result.code === "string");
  if (refused && "code" in refused && typeof refused.code === "string")
    return dashscopeError(refused.code, typeof refused.message === "string" ? refused.message : null, httpStatus);
  return new DashscopeAnswerNotUnderstood(httpStatus, "SUCCEEDED without results");
}
