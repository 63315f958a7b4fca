import { randomUUID } from "node:crypto";
import type { ServerResponse } from "node:http";
import { catalogModelIds } from "@/tests/fakes/catalog-models";
import { header, sampleOutput, sendJson, sleep, startFakeServer, type FakeServer, type RecordedRequest } from "@/tests/fakes/fake-server";

// A local DashScope (Alibaba Cloud Model Studio), written from its published references
// (https://www.alibabacloud.com/help/en/model-studio/text-to-video-api-reference, image-to-video-api-reference,
// text-to-image-v2-api-reference, qwen-image-api, error-code). Bearer auth. Creates need
// `X-DashScope-Async: enable` (else 403 AccessDenied "current user api does not support
// synchronous calls") and answer `{request_id, output: {task_id, task_status: "PENDING"}}`.
// GET /api/v1/tasks/{task_id} walks PENDING → RUNNING → SUCCEEDED (`video_url`, or `results[].url`
// for pictures) or FAILED (`output.code` / `message`); a task it does not know is HTTP 200 with
// task_status UNKNOWN. POST /api/v1/tasks/{task_id}/cancel cancels a PENDING task, else 400
// UnsupportedOperation. Errors are `{request_id, code, message}` with their HTTP status: 400
// InvalidParameter / DataInspectionFailed / Arrearage, 401 InvalidApiKey, 429 Throttling.RateQuota,
// 500 InternalError. The HTTP API sends no callbacks, so none are played. Qwen-Image-Edit
// (https://www.alibabacloud.com/help/en/model-studio/qwen-image-edit) is synchronous: POST
// /api/v1/services/aigc/multimodal-generation/generation without the async header, `{model, input:
// {messages: [{role: "user", content: [{image}, {text}]}]}, parameters}`, answered with
// `{output: {choices: [{finish_reason, message: {role, content: [{image}]}}]}, usage, request_id}`. GET /api/v1/models
// (list-models) answers `{request_id, output: {total, page_no, page_size, models: [{model, name,
// description}]}}` over the models in `models` (the catalog's, by default); `?model=` is an exact
// match, so an unknown id is an empty list (a filter, not a 404).
//
// Prompt markers steer it from the HTTP suites (scripts/test.ts starts one for the app):
// "[alibaba:rate-limit]" answers 429 Throttling.RateQuota, "[alibaba:moderated]" 400
// DataInspectionFailed, "[alibaba:slow]" keeps a task PENDING for a minute, "[alibaba:task-fail]"
// ends it FAILED with DataInspectionFailed, "[alibaba:output-moderated]" answers every picture as a
// DataInspectionFailed results entry, "[alibaba:output-oversized]" and "[alibaba:output-internal]"
// name an output URL no download may take.

export type AlibabaFakeFailure =
  | "rate_limit"
  | "unauthorized"
  | "arrearage"
  | "server_error"
  | "http_unavailable"
  | "request_timeout"
  | "content_policy"
  | "task_failed"
  | "task_moderated"
  | "garbled";
export type AlibabaFakeScript = { fail?: AlibabaFakeFailure | null; delayMs?: number; responseDelayMs?: number };

export type AlibabaFake = FakeServer & {
  apiKey: string;
  script(script: AlibabaFakeScript): void;
  reset(): void;
  /** The model ids GET /api/v1/models lists. */
  models: Set<string>;
};

type Task = {
  id: string;
  kind: "video" | "image";
  prompt: string;
  count: number;
  createdAt: number;
  delayMs: number;
  failure: "task_failed" | "task_moderated" | null;
  status: "PENDING" | "CANCELED" | null;
};

const videoModels = new Set(["wan2.2-t2v-plus", "wan2.5-t2v-preview", "wan2.1-t2v-turbo", "wan2.1-t2v-plus"]);
const i2vModels = new Set(["wan2.2-i2v-plus", "wan2.2-i2v-flash", "wan2.5-i2v-preview", "wan2.1-i2v-turbo", "wan2.1-i2v-plus"]);
const imageModels = new Set(["qwen-image", "wan2.2-t2i-flash", "wan2.2-t2i-plus", "wanx2.1-t2i-turbo", "wanx2.1-t2i-plus"]);
const qwenSizes = new Set(["1664*928", "1472*1140", "1328*1328", "1140*1472", "928*1664"]);
/** Text-to-video `size` per tier, and the tiers each model makes (text-to-video-api-reference). */
const sizesByTier: Record<string, string[]> = {
  "480P": ["832*480", "480*832", "624*624"],
  "720P": ["1280*720", "720*1280", "960*960", "1088*832", "832*1088"],
  "1080P": ["1920*1080", "1080*1920", "1440*1440", "1632*1248", "1248*1632"],
};
const tiersByModel: Record<string, string[]> = {
  "wan2.2-t2v-plus": ["480P", "1080P"],
  "wan2.2-i2v-plus": ["480P", "1080P"],
  "wan2.2-i2v-flash": ["480P", "720P", "1080P"],
  "wan2.5-t2v-preview": ["480P", "720P", "1080P"],
  "wan2.5-i2v-preview": ["480P", "720P", "1080P"],
  "wan2.1-t2v-turbo": ["480P", "720P"],
  "wan2.1-i2v-turbo": ["480P", "720P"],
  "wan2.1-t2v-plus": ["720P"],
  "wan2.1-i2v-plus": ["720P"],
};
/** Lengths in seconds each model takes; the rest take 5. */
const durationsByModel: Record<string, number[]> = {
  "wan2.5-t2v-preview": [5, 10],
  "wan2.5-i2v-preview": [5, 10],
  "wan2.1-i2v-turbo": [3, 4, 5],
};
const taskPaths = /^\/api\/v1\/tasks\/([^/]+)(\/cancel)?$/;

export async function startAlibabaFake(options: { apiKey?: string } = {}): Promise<AlibabaFake> {
  const apiKey = options.apiKey ?? "sk-dashscope-test-key";
  let current: AlibabaFakeScript = {};
  const tasks = new Map<string, Task>();
  const served = catalogModelIds("alibaba");

  const server = await startFakeServer(async (request, response) => {
    if (current.responseDelayMs) await sleep(current.responseDelayMs);
    if (header(request, "authorization") !== `Bearer ${apiKey}` || current.fail === "unauthorized") {
      return fail(response, 401, "InvalidApiKey", "Invalid API-key provided.");
    }
    const steered = steeredFailure(request);
    if (steered) return answerFailure(response, steered);
    if (request.method === "GET" && request.path === "/api/v1/models") return listModels(request, response);
    if (request.method === "POST" && request.path === "/api/v1/services/aigc/video-generation/video-synthesis")
      return createTask(request, response, "video");
    if (request.method === "POST" && request.path === "/api/v1/services/aigc/text2image/image-synthesis")
      return createTask(request, response, "image");
    if (request.method === "POST" && request.path === "/api/v1/services/aigc/multimodal-generation/generation")
      return editImage(request, response);
    const match = taskPaths.exec(request.path);
    if (match && request.method === "GET" && !match[2]) return queryTask(decodeURIComponent(match[1] ?? ""), response);
    if (match && request.method === "POST" && match[2]) return cancelTask(decodeURIComponent(match[1] ?? ""), response);
    return fail(response, 404, "NotFound", "Not Found");
  });

  /** A failure scripted for every call, or one a prompt marker asks of a create. */
  function steeredFailure(request: RecordedRequest): AlibabaFakeFailure | null {
    if (current.fail && current.fail !== "task_failed" && current.fail !== "task_moderated") return current.fail;
    const prompt = promptOf(request);
    if (prompt.includes("[alibaba:rate-limit]")) return "rate_limit";
    if (prompt.includes("[alibaba:moderated]")) return "content_policy";
    return null;
  }

  function createTask(request: RecordedRequest, response: ServerResponse, kind: "video" | "image") {
    if (header(request, "x-dashscope-async") !== "enable")
      return fail(response, 403, "AccessDenied", "current user api does not support synchronous calls");
    const body = request.body as Record<string, unknown> | null;
    const invalid = !body
      ? "The request body is not valid JSON."
      : kind === "video"
        ? invalidVideoRequest(body)
        : invalidImageRequest(body);
    if (invalid) return fail(response, 400, "InvalidParameter", invalid);
    const prompt = promptOf(request);
    const id = randomUUID();
    const scripted = current.fail === "task_failed" || current.fail === "task_moderated" ? current.fail : null;
    const failure = prompt.includes("[alibaba:task-fail]") ? "task_moderated" : scripted;
    const delayMs = prompt.includes("[alibaba:slow]") ? 60_000 : (current.delayMs ?? 300);
    const count = Number((body?.parameters as Record<string, unknown> | undefined)?.n ?? 1);
    tasks.set(id, { id, kind, prompt, count, createdAt: Date.now(), delayMs, failure, status: null });
    return sendJson(response, 200, { request_id: randomUUID(), output: { task_id: id, task_status: "PENDING" } });
  }

  async function editImage(request: RecordedRequest, response: ServerResponse) {
    if (header(request, "x-dashscope-async") === "enable")
      return fail(response, 403, "AccessDenied", "current user api does not support asynchronous calls");
    const body = request.body as Record<string, unknown> | null;
    const invalid = !body ? "The request body is not valid JSON." : invalidEditRequest(body);
    if (invalid) return fail(response, 400, "InvalidParameter", invalid);
    const url = await outputUrl(promptOf(request), "png", randomUUID());
    return sendJson(response, 200, {
      request_id: randomUUID(),
      output: { choices: [{ finish_reason: "stop", message: { role: "assistant", content: [{ image: url }] } }] },
      usage: { width: 1024, height: 1024, image_count: 1 },
    });
  }

  async function queryTask(id: string, response: ServerResponse) {
    const task = tasks.get(id);
    if (!task) return sendJson(response, 200, { request_id: randomUUID(), output: { task_id: id, task_status: "UNKNOWN" } });
    const base = { task_id: task.id, submit_time: stamp(task.createdAt) };
    if (task.status === "CANCELED")
      return sendJson(response, 200, { request_id: randomUUID(), output: { ...base, task_status: "CANCELED" } });
    const elapsed = Date.now() - task.createdAt;
    if (elapsed < task.delayMs) {
      const status = elapsed < task.delayMs / 2 || task.delayMs >= 60_000 ? "PENDING" : "RUNNING";
      return sendJson(response, 200, { request_id: randomUUID(), output: { ...base, task_status: status } });
    }
    const ended = { ...base, scheduled_time: stamp(task.createdAt + 10), end_time: stamp(Date.now()) };
    if (task.failure === "task_moderated") {
      return sendJson(response, 200, {
        request_id: randomUUID(),
        output: {
          ...ended,
          task_status: "FAILED",
          code: "DataInspectionFailed",
          message: "Output data may contain inappropriate content.",
        },
      });
    }
    if (task.failure === "task_failed") {
      return sendJson(response, 200, {
        request_id: randomUUID(),
        output: {
          ...ended,
          task_status: "FAILED",
          code: "InternalError.Algo",
          message: "An internal error has occured during algorithm execution.",
        },
      });
    }
    if (task.kind === "video") {
      const videoUrl = await outputUrl(task.prompt, "mp4", task.id);
      return sendJson(response, 200, {
        request_id: randomUUID(),
        output: { ...ended, task_status: "SUCCEEDED", orig_prompt: task.prompt, video_url: videoUrl },
        usage: { video_duration: 5, video_ratio: "832*480", video_count: 1 },
      });
    }
    if (task.prompt.includes("[alibaba:output-moderated]")) {
      // Each picture its output check held back is a results entry with a code instead of a url.
      const refused = Array.from({ length: task.count }, () => ({
        code: "DataInspectionFailed",
        message: "Output data may contain inappropriate content.",
      }));
      return sendJson(response, 200, {
        request_id: randomUUID(),
        output: {
          ...ended,
          task_status: "SUCCEEDED",
          results: refused,
          task_metrics: { TOTAL: task.count, SUCCEEDED: 0, FAILED: task.count },
        },
        usage: { image_count: 0 },
      });
    }
    const results = await Promise.all(
      Array.from({ length: task.count }, async (_, index) => ({
        url: await outputUrl(task.prompt, "png", `${task.id}-${index}`),
        orig_prompt: task.prompt,
      })),
    );
    return sendJson(response, 200, {
      request_id: randomUUID(),
      output: { ...ended, task_status: "SUCCEEDED", results, task_metrics: { TOTAL: task.count, SUCCEEDED: task.count, FAILED: 0 } },
      usage: { image_count: task.count },
    });
  }

  function cancelTask(id: string, response: ServerResponse) {
    const task = tasks.get(id);
    // PENDING as queryTask tells it: a slow task throughout, any other for the first half of its run.
    const pending =
      task !== undefined && task.status === null && (task.delayMs >= 60_000 || Date.now() - task.createdAt < task.delayMs / 2);
    if (!task || !pending)
      return fail(response, 400, "UnsupportedOperation", "Failed to cancel the task, please confirm if the task is in PENDING status.");
    task.status = "CANCELED";
    return sendJson(response, 200, { request_id: randomUUID() });
  }

  /** The file a finished task names: a real sample, or one of the refused kinds a marker asks for. */
  async function outputUrl(prompt: string, format: string, name: string): Promise<string> {
    const sample = await sampleOutput(format);
    if (prompt.includes("[alibaba:output-oversized]"))
      return server.putEndlessFile(`${name}.${sample.extension}`, sample.contentType, 300 * 1024 * 1024);
    const url = server.putFile(`${name}.${sample.extension}`, sample.bytes, sample.contentType);
    return prompt.includes("[alibaba:output-internal]") ? url.replace("127.0.0.1", "0.0.0.0") : url;
  }

  function listModels(request: RecordedRequest, response: ServerResponse) {
    const exact = request.query.get("model");
    const pageNo = Number(request.query.get("page_no") ?? 1);
    const pageSize = Number(request.query.get("page_size") ?? 10);
    const all = [...served].filter((model) => exact === null || model === exact);
    const page = all
      .slice((pageNo - 1) * pageSize, pageNo * pageSize)
      .map((model) => ({ model, name: model, description: `${model} on the fake` }));
    return sendJson(response, 200, {
      request_id: randomUUID(),
      output: { total: all.length, page_no: pageNo, page_size: pageSize, models: page },
    });
  }

  return {
    ...server,
    apiKey,
    script(script) {
      current = { ...script };
    },
    reset() {
      current = {};
      server.requests.length = 0;
    },
    models: served,
  };
}

function answerFailure(response: ServerResponse, failure: AlibabaFakeFailure) {
  switch (failure) {
    case "rate_limit":
      return fail(response, 429, "Throttling.RateQuota", "Requests rate limit exceeded, please try again later.");
    case "arrearage":
      return fail(response, 400, "Arrearage", "Access denied, please make sure your account is in good standing.");
    case "request_timeout":
      return fail(response, 500, "RequestTimeOut", "Request timed out, please try again later.");
    case "content_policy":
      return fail(response, 400, "DataInspectionFailed", "Input data may contain inappropriate content.");
    case "http_unavailable":
      response.writeHead(503, { "Content-Type": "text/html" });
      response.end("<html><body>503 Service Temporarily Unavailable</body></html>");
      return;
    case "garbled":
      return sendJson(response, 200, { request_id: randomUUID(), output: { task_status: "EXPLODED", results: 7 } });
    default:
      return fail(response, 500, "InternalError", "An internal error has occured, please try again later or contact service support.");
  }
}

function fail(response: ServerResponse, status: number, code: string, message: string) {
  sendJson(response, status, { request_id: randomUUID(), code, message });
}

function stamp(ms: number): string {
  return new Date(ms).toISOString().replace("T", " ").replace("Z", "");
}

function promptOf(request: RecordedRequest): string {
  const input = (request.body as { input?: { prompt?: unknown; messages?: unknown } } | null)?.input;
  if (typeof input?.prompt === "string") return input.prompt;
  return editContent(input?.messages)
    .map((part) => (typeof part.text === "string" ? part.text : ""))
    .join(" ");
}

function editContent(messages: unknown): Array<Record<string, unknown>> {
  const first = Array.isArray(messages) ? (messages[0] as { content?: unknown } | undefined) : undefined;
  return Array.isArray(first?.content) ? (first.content as Array<Record<string, unknown>>) : [];
}

/** qwen-image-edit: one user message with one image and one text of at most 800 characters; one picture out. */
function invalidEditRequest(body: Record<string, unknown>): string | null {
  if (body.model !== "qwen-image-edit") return `Model not exist: ${String(body.model)}`;
  const messages = (body.input as { messages?: unknown } | undefined)?.messages;
  if (!Array.isArray(messages) || messages.length !== 1 || (messages[0] as { role?: unknown }).role !== "user")
    return "input.messages must hold one user message";
  const content = editContent(messages);
  const images = content.filter((part) => typeof part.image === "string");
  const texts = content.filter((part) => typeof part.text === "string" && part.text !== "" && part.text.length <= 800);
  if (images.length !== 1 || texts.length !== 1 || content.length !== 2)
    return "input.messages[0].content must hold one image and one text (at most 800 characters)";
  const parameters = (body.parameters ?? {}) as Record<string, unknown>;
  if (parameters.n !== undefined && parameters.n !== 1) return "parameters.n must be 1 for qwen-image-edit";
  if (parameters.watermark !== undefined && typeof parameters.watermark !== "boolean") return "parameters.watermark must be a boolean";
  return null;
}

function invalidVideoRequest(body: Record<string, unknown>): string | null {
  const model = String(body.model);
  const input = (body.input ?? {}) as Record<string, unknown>;
  const parameters = (body.parameters ?? {}) as Record<string, unknown>;
  const i2v = i2vModels.has(model);
  if (!videoModels.has(model) && !i2v) return `Model not exist: ${model}`;
  if (input.prompt !== undefined && (typeof input.prompt !== "string" || input.prompt.length > 800))
    return "input.prompt must be a string of at most 800 characters";
  if (i2v && typeof input.img_url !== "string") return "Field required: input.img_url";
  if (!i2v && typeof input.prompt !== "string") return "Field required: input.prompt";
  const tiers = tiersByModel[model] ?? [];
  if (i2v && parameters.resolution !== undefined && !tiers.includes(String(parameters.resolution)))
    return `parameters.resolution ${String(parameters.resolution)} is not supported`;
  if (!i2v && parameters.size !== undefined && !tiers.some((tier) => sizesByTier[tier]?.includes(String(parameters.size))))
    return `parameters.size ${String(parameters.size)} is not supported`;
  const durations = durationsByModel[model] ?? [5];
  if (parameters.duration !== undefined && !durations.includes(Number(parameters.duration)))
    return `parameters.duration must be one of ${durations.join(", ")} for this model`;
  return null;
}

function invalidImageRequest(body: Record<string, unknown>): string | null {
  const model = String(body.model);
  const input = (body.input ?? {}) as Record<string, unknown>;
  const parameters = (body.parameters ?? {}) as Record<string, unknown>;
  if (!imageModels.has(model)) return `Model not exist: ${model}`;
  if (typeof input.prompt !== "string" || input.prompt === "" || input.prompt.length > 800)
    return "Field required: input.prompt (at most 800 characters)";
  const size = parameters.size;
  if (size !== undefined) {
    if (model === "qwen-image" && !qwenSizes.has(String(size))) return `parameters.size ${String(size)} is not supported`;
    const [width, height] = String(size).split("*").map(Number);
    if (!width || !height || width < 512 || width > 1440 || height < 512 || height > 1440) {
      if (model !== "qwen-image") return `parameters.size ${String(size)}: width and height must be within [512, 1440]`;
    }
  }
  const n = parameters.n ?? (model === "qwen-image" ? 1 : 4);
  const max = model === "qwen-image" ? 1 : 4;
  if (typeof n !== "number" || !Number.isInteger(n) || n < 1 || n > max) return `parameters.n must be an integer from 1 to ${max}`;
  return null;
}
