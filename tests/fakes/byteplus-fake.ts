import { randomBytes } from "node:crypto";
import type { ServerResponse } from "node:http";
import {
  header,
  heldUntil,
  sampleOutput,
  sendJson,
  startFakeServer,
  type FakeServer,
  type RecordedRequest,
} from "@/tests/fakes/fake-server";

// A local BytePlus ModelArk for adapter and HTTP tests, written from its published API under
// /api/v3 with `Authorization: Bearer <API key>`:
// - image generation API (https://docs.byteplus.com/en/docs/ModelArk/1541523): POST
//   /images/generations {model, prompt, image, size, seed, sequential_image_generation,
//   response_format url | b64_json, watermark} answering `{model, created, data: [{b64_json | url,
//   size}], usage: {generated_images, output_tokens, total_tokens}}` in the same call;
// - video generation API (https://docs.byteplus.com/en/docs/ModelArk/1520757): POST
//   /contents/generations/tasks {model, content: [{type: text, text} | {type: image_url,
//   image_url: {url}, role}], ratio, duration, resolution, seed, watermark} answering `{id}`; GET
//   /contents/generations/tasks/{id} going queued → running → succeeded | failed (`error: {code,
//   message}`) | expired, with `content.video_url`; DELETE on it answers 200 `{}`,
//   cancelling a queued task (cancelled) or deleting a succeeded, failed or expired one (404
//   after), and is refused for a running or cancelled one;
// - error codes (https://docs.byteplus.com/en/docs/ModelArk/1299023): `{error: {code, message,
//   param, type}}`: 401 AuthenticationError, 429 RateLimitExceeded.EndpointRPMExceeded, 500
//   InternalServiceError, 400 InputTextSensitiveContentDetected / OutputImageSensitiveContentDetected
//   / InvalidParameter, 404 ResourceNotFound; a task fails with OutputVideoSensitiveContentDetected.
// ModelArk's callback_url posts are unsigned, so there is no signature to fake. GET
// /contents/generations/tasks?page_num=&page_size= lists the tasks `{items, total}`, newest first
// (ModelArk's model list is in the signed management API, not here).
//
// Failures come from script() (adapter tests) or a `[byteplus:<failure>]` marker in the prompt (the
// HTTP suites, whose app talks to this fake from another process); `[byteplus:slow]` holds an image
// answer, or keeps a task queued, for 60 s (for cancels).

export type ByteplusFakeFailure =
  | "rate_limit"
  | "server_error"
  | "unauthorized"
  | "moderated"
  | "output_moderated"
  | "task_failed"
  | "task_moderated"
  | "expired"
  | "garbled"
  | "oversized"
  | "output_internal";

export type ByteplusFakeScript = { fail?: ByteplusFakeFailure | null; delayMs?: number };

type FakeTask = {
  id: string;
  model: string;
  body: Record<string, unknown>;
  createdAt: number;
  finishAt: number;
  fail: ByteplusFakeFailure | null;
  cancelled: boolean;
  videoUrl: string;
};

export type ByteplusFake = FakeServer & {
  apiKey: string;
  /** The API root, as ARK_BASE_URL takes it (…/api/v3). */
  apiBaseUrl: string;
  /** Image calls whose client left before the answer (canceled generations). */
  abandoned: string[];
  task(id: string): FakeTask | undefined;
  script(script: ByteplusFakeScript): void;
  reset(): void;
};

const imageModels = ["seedream-4-0-250828", "seedream-3-0-t2i-250415", "seededit-3-0-i2i-250628"];
const videoModels = ["seedance-1-0-pro-250528", "seedance-1-0-lite-t2v-250428", "seedance-1-0-lite-i2v-250428"];
const videoRatios = ["16:9", "4:3", "1:1", "3:4", "9:16", "21:9", "adaptive"];
const DEFAULT_DELAY_MS = 150;
const SLOW_MS = 60_000;
/** Past the adapter's 48 MiB cap once base64-encoded. */
const OVERSIZED_BYTES = 40 * 1024 * 1024;

const errors: Partial<Record<ByteplusFakeFailure, { status: number; code: string; type: string; message: string }>> = {
  rate_limit: {
    status: 429,
    code: "RateLimitExceeded.EndpointRPMExceeded",
    type: "TooManyRequests",
    message: "The request has exceeded the rate limit of the endpoint (RPM). Please try again later.",
  },
  server_error: {
    status: 500,
    code: "InternalServiceError",
    type: "InternalServerError",
    message: "The service encountered an unexpected internal error.",
  },
  unauthorized: {
    status: 401,
    code: "AuthenticationError",
    type: "Unauthorized",
    message: "The API key or AK/SK in the request is missing or invalid.",
  },
  moderated: {
    status: 400,
    code: "InputTextSensitiveContentDetected",
    type: "BadRequest",
    message: "The request failed because the input text may contain sensitive information.",
  },
  output_moderated: {
    status: 400,
    code: "OutputImageSensitiveContentDetected",
    type: "BadRequest",
    message: "The request failed because the output image may contain sensitive information.",
  },
};

export async function startByteplusFake(options: { apiKey?: string } = {}): Promise<ByteplusFake> {
  const apiKey = options.apiKey ?? `ark-${randomBytes(16).toString("hex")}`;
  const tasks = new Map<string, FakeTask>();
  const abandoned: string[] = [];
  let current: ByteplusFakeScript = {};

  const server = await startFakeServer(async (request, response) => {
    if (header(request, "authorization") !== `Bearer ${apiKey}` || current.fail === "unauthorized")
      return arkError(response, "unauthorized");
    if (current.fail === "rate_limit" || current.fail === "server_error") return arkError(response, current.fail);
    if (request.method === "POST" && request.path === "/api/v3/images/generations") return generateImage(request, response);
    if (request.method === "POST" && request.path === "/api/v3/contents/generations/tasks") return createTask(request, response);
    if (request.method === "GET" && request.path === "/api/v3/contents/generations/tasks") return listTasks(request, response);
    const match = /^\/api\/v3\/contents\/generations\/tasks\/([^/]+)$/.exec(request.path);
    const task = match ? tasks.get(decodeURIComponent(match[1] ?? "")) : undefined;
    if (match && !task) return sendError(response, 404, "ResourceNotFound", "NotFound", "The specified task does not exist.");
    if (task && request.method === "GET") return sendJson(response, 200, view(task));
    if (task && request.method === "DELETE") {
      const state = status(task);
      // Running and cancelled tasks cannot be deleted; queued ones are cancelled, ended ones deleted.
      if (state === "running" || state === "cancelled")
        return sendError(response, 400, "InvalidParameter", "BadRequest", `A ${state} task cannot be cancelled or deleted.`);
      if (state === "queued") task.cancelled = true;
      else tasks.delete(task.id);
      return sendJson(response, 200, {});
    }
    return sendError(response, 404, "NotFound", "NotFound", `No route for ${request.method} ${request.path}`);
  });

  async function generateImage(request: RecordedRequest, response: ServerResponse) {
    const body = asObject(request.body);
    const invalid = body ? invalidImageBody(body) : "body must be a JSON object";
    if (invalid)
      return sendError(
        response,
        400,
        "InvalidParameter",
        "BadRequest",
        `One or more parameters specified in the request are not valid: ${invalid}`,
      );
    const prompt = String(body!.prompt);
    const fail = current.fail ?? marked(prompt);
    if (prompt.includes("[byteplus:slow]") && !(await heldUntil(SLOW_MS, response))) {
      abandoned.push(request.path);
      return;
    }
    if (fail && errors[fail] && fail !== "unauthorized") return arkError(response, fail);
    if (fail === "garbled") return sendJson(response, 200, { model: body!.model, created: now(), images: [{ base64: "AAAA" }] });
    const bytes = fail === "oversized" ? Buffer.alloc(OVERSIZED_BYTES, 0xff) : (await sampleOutput("jpeg")).bytes;
    const item =
      body!.response_format === "b64_json"
        ? { b64_json: bytes.toString("base64"), size: String(body!.size ?? "2048x2048") }
        : { url: server.putFile(`${randomBytes(8).toString("hex")}.jpeg`, bytes, "image/jpeg"), size: String(body!.size ?? "2048x2048") };
    return sendJson(response, 200, {
      model: body!.model,
      created: now(),
      data: [item],
      usage: { generated_images: 1, output_tokens: 16384, total_tokens: 16384 },
    });
  }

  async function createTask(request: RecordedRequest, response: ServerResponse) {
    const body = asObject(request.body);
    const invalid = body ? invalidTaskBody(body) : "body must be a JSON object";
    if (invalid)
      return sendError(
        response,
        400,
        "InvalidParameter",
        "BadRequest",
        `One or more parameters specified in the request are not valid: ${invalid}`,
      );
    const prompt = textOf(body!);
    const fail = current.fail ?? marked(prompt);
    if (fail === "moderated") return arkError(response, "moderated");
    const createdAt = Date.now();
    const id = `cgt-${new Date().toISOString().slice(0, 10).replace(/-/g, "")}${randomBytes(6).toString("hex")}`;
    const sample = await sampleOutput("mp4");
    const videoUrl =
      fail === "output_internal"
        ? `${server.putFile(`${id}.mp4`, sample.bytes, sample.contentType).replace("127.0.0.1", "0.0.0.0")}`
        : fail === "oversized"
          ? server.putEndlessFile(`${id}.mp4`, "video/mp4", 1024 * 1024 * 1024)
          : server.putFile(`${id}.mp4`, sample.bytes, sample.contentType);
    const delay = prompt.includes("[byteplus:slow]") ? SLOW_MS : (current.delayMs ?? DEFAULT_DELAY_MS);
    tasks.set(id, {
      id,
      model: String(body!.model),
      body: body!,
      createdAt,
      finishAt: createdAt + delay,
      fail,
      cancelled: false,
      videoUrl,
    });
    return sendJson(response, 200, { id });
  }

  function status(task: FakeTask): string {
    if (task.cancelled) return "cancelled";
    const elapsed = Date.now() - task.createdAt;
    const total = task.finishAt - task.createdAt;
    // A slow task waits in the queue (so it can still be cancelled); others run after a quarter.
    if (elapsed < total) return total >= SLOW_MS || elapsed < total / 4 ? "queued" : "running";
    if (task.fail === "task_failed" || task.fail === "task_moderated") return "failed";
    if (task.fail === "expired") return "expired";
    return "succeeded";
  }

  function view(task: FakeTask) {
    const state = status(task);
    const base = { id: task.id, model: task.model, created_at: Math.floor(task.createdAt / 1000), updated_at: now() };
    if (task.fail === "garbled" && state === "succeeded") return { ...base, status: "done", output: { video: task.videoUrl } };
    const params = {
      seed: task.body.seed ?? 0,
      resolution: task.body.resolution ?? "1080p",
      ratio: task.body.ratio ?? "16:9",
      duration: task.body.duration ?? 5,
      framespersecond: 24,
    };
    if (state === "succeeded")
      return {
        ...base,
        ...params,
        status: state,
        error: null,
        content: { video_url: task.videoUrl },
        usage: { completion_tokens: 246840, total_tokens: 246840 },
      };
    if (state === "failed") {
      const error =
        task.fail === "task_moderated"
          ? {
              code: "OutputVideoSensitiveContentDetected",
              message: "The request failed because the output video may contain sensitive information.",
            }
          : { code: "InternalServiceError", message: "The service encountered an unexpected internal error." };
      return { ...base, ...params, status: state, error };
    }
    return { ...base, ...params, status: state, error: null };
  }

  function listTasks(request: RecordedRequest, response: ServerResponse) {
    const pageNum = Number(request.query.get("page_num") ?? 1);
    const pageSize = Number(request.query.get("page_size") ?? 10);
    if (!(pageNum >= 1 && pageNum <= 500 && pageSize >= 1 && pageSize <= 500))
      return sendError(response, 400, "InvalidParameter", "BadRequest", "page_num and page_size must be from 1 to 500.");
    const newest = [...tasks.values()].sort((a, b) => b.createdAt - a.createdAt);
    return sendJson(response, 200, { items: newest.slice((pageNum - 1) * pageSize, pageNum * pageSize).map(view), total: newest.length });
  }

  return {
    ...server,
    apiKey,
    apiBaseUrl: `${server.baseUrl}/api/v3`,
    abandoned,
    task: (id) => tasks.get(id),
    script(script) {
      current = { ...script };
    },
    reset() {
      current = {};
      server.requests.length = 0;
      abandoned.length = 0;
    },
  };
}

function invalidImageBody(body: Record<string, unknown>): string | null {
  if (typeof body.model !== "string" || !imageModels.includes(body.model)) return "model";
  if (typeof body.prompt !== "string" || body.prompt === "") return "prompt";
  if (body.size !== undefined && (typeof body.size !== "string" || !/^(1K|2K|4K|adaptive|\d{3,4}x\d{3,4})$/.test(body.size))) return "size";
  if (body.response_format !== undefined && body.response_format !== "url" && body.response_format !== "b64_json") return "response_format";
  if (body.seed !== undefined && (!Number.isInteger(body.seed) || (body.seed as number) < -1 || (body.seed as number) > 2_147_483_647))
    return "seed";
  if (
    body.sequential_image_generation !== undefined &&
    body.sequential_image_generation !== "auto" &&
    body.sequential_image_generation !== "disabled"
  )
    return "sequential_image_generation";
  if (
    body.image !== undefined &&
    typeof body.image !== "string" &&
    !(Array.isArray(body.image) && body.image.length <= 14 && body.image.every((url) => typeof url === "string"))
  )
    return "image";
  return invalidForModel(body);
}

/** Seedream 3.0: text only, [512, 2048] pixels a side, no sequential generation; SeedEdit 3.0: one image, size "adaptive". */
function invalidForModel(body: Record<string, unknown>): string | null {
  const v3 = body.model === "seedream-3-0-t2i-250415" || body.model === "seededit-3-0-i2i-250628";
  if (v3 && body.sequential_image_generation !== undefined) return "sequential_image_generation";
  if (body.model === "seededit-3-0-i2i-250628") {
    if (typeof body.image !== "string") return "image";
    if (body.size !== undefined && body.size !== "adaptive") return "size";
    return null;
  }
  if (body.size === "adaptive") return "size";
  if (body.model === "seedream-3-0-t2i-250415") {
    if (body.image !== undefined) return "image";
    const [width, height] = String(body.size ?? "1024x1024")
      .split("x")
      .map(Number);
    if (![width, height].every((side) => side !== undefined && side >= 512 && side <= 2048)) return "size";
  }
  return null;
}

function invalidTaskBody(body: Record<string, unknown>): string | null {
  if (typeof body.model !== "string" || !videoModels.includes(body.model)) return "model";
  if (!Array.isArray(body.content) || body.content.length === 0) return "content";
  for (const item of body.content as unknown[]) {
    const part = asObject(item);
    if (part?.type === "text" && typeof part.text === "string") continue;
    const image = asObject(part?.image_url);
    if (
      part?.type === "image_url" &&
      typeof image?.url === "string" &&
      (part.role === undefined || ["first_frame", "last_frame", "reference_image"].includes(String(part.role)))
    )
      continue;
    return "content";
  }
  const frames = (body.content as unknown[]).map(asObject).filter((part) => part?.type === "image_url");
  if (String(body.model).includes("-t2v-") && frames.length > 0) return "content";
  if (String(body.model).includes("-i2v-") && !frames.some((part) => part?.role === "first_frame" || part?.role === undefined))
    return "content";
  if (
    frames.some((part) => part?.role === "last_frame") &&
    !String(body.model).includes("-i2v-") &&
    body.model !== "seedance-1-0-pro-250528"
  )
    return "content";
  if (body.ratio !== undefined && !videoRatios.includes(String(body.ratio))) return "ratio";
  if (body.duration !== undefined && (!Number.isInteger(body.duration) || (body.duration as number) < 2 || (body.duration as number) > 12))
    return "duration";
  if (body.resolution !== undefined && !["480p", "720p", "1080p"].includes(String(body.resolution))) return "resolution";
  if (body.seed !== undefined && (!Number.isInteger(body.seed) || (body.seed as number) < -1 || (body.seed as number) > 4_294_967_295))
    return "seed";
  return null;
}

function textOf(body: Record<string, unknown>): string {
  const parts = (body.content as unknown[]).map(asObject);
  return parts.map((part) => (part?.type === "text" ? String(part.text) : "")).join(" ");
}

function marked(prompt: string): ByteplusFakeFailure | null {
  const marker = /\[byteplus:([a-z_]+)\]/.exec(prompt)?.[1];
  const known: ByteplusFakeFailure[] = [
    "rate_limit",
    "server_error",
    "moderated",
    "output_moderated",
    "task_failed",
    "task_moderated",
    "expired",
    "garbled",
    "oversized",
    "output_internal",
  ];
  return known.find((failure) => failure === marker) ?? null;
}

function arkError(response: ServerResponse, failure: ByteplusFakeFailure) {
  const error = errors[failure]!;
  sendError(response, error.status, error.code, error.type, error.message, failure === "rate_limit" ? { "Retry-After": "1" } : {});
}

function sendError(
  response: ServerResponse,
  status: number,
  code: string,
  type: string,
  message: string,
  headers: Record<string, string> = {},
) {
  sendJson(
    response,
    status,
    { error: { code, message: `${message} Request id: ${randomBytes(10).toString("hex")}`, param: "", type } },
    headers,
  );
}

function asObject(value: unknown): Record<string, unknown> | null {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

function now() {
  return Math.floor(Date.now() / 1000);
}
