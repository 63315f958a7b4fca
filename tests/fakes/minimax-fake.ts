import { randomBytes } from "node:crypto";
import type { ServerResponse } from "node:http";
import { header, sampleOutput, sendJson, sleep, startFakeServer, type FakeServer, type RecordedRequest } from "@/tests/fakes/fake-server";

// A local MiniMax API, written from its published reference (https://platform.minimax.io/docs/api-reference:
// video-generation-t2v / -i2v / -query / -download, image-generation-t2i, errorcode). Bearer auth.
// Every answer is HTTP 200 with `base_resp: {status_code, status_msg}`; a failure is a non-zero
// code (1002 rate limit, 1004 auth, 1008 balance, 1026/1027 sensitive input/output, 2013 invalid
// params). Videos are tasks: POST /v1/video_generation → {task_id}; GET /v1/query/video_generation
// ?task_id= walks Preparing → Queueing → Processing → Success (with file_id) or Fail; GET
// /v1/files/retrieve?file_id= gives the file's download_url. POST /v1/image_generation answers the
// pictures at once, {id, data: {image_urls | image_base64}, metadata: {success_count, failed_count}}.
// MiniMax's callbacks carry no signature and the adapter sends no callback_url, so none are played.
// GET /v1/files/list?purpose= (file management) answers `{files, base_resp}`; MiniMax publishes no
// model read endpoint.
//
// Prompt markers steer it from the HTTP suites (scripts/test.ts starts one for the app):
// "[minimax:rate-limit]" answers 1002, "[minimax:moderated]" 1026, "[minimax:slow]" keeps a task
// Processing for a minute, "[minimax:task-fail]" ends it Fail with 1027, "[minimax:withheld]"
// answers no picture with failed_count, "[minimax:output-oversized]" and
// "[minimax:output-internal]" name an output URL no download may take.

export type MiniMaxFakeFailure =
  | "rate_limit"
  | "unauthorized"
  | "insufficient_balance"
  | "server_error"
  | "http_unavailable"
  | "timeout_code"
  | "content_policy"
  | "task_failed"
  | "task_moderated"
  | "garbled";
export type MiniMaxFakeScript = { fail?: MiniMaxFakeFailure | null; delayMs?: number; responseDelayMs?: number };

export type MiniMaxFake = FakeServer & {
  token: string;
  script(script: MiniMaxFakeScript): void;
  reset(): void;
};

type Task = {
  id: string;
  prompt: string;
  createdAt: number;
  delayMs: number;
  fileId: string;
  failure: "task_failed" | "task_moderated" | null;
};

const imageModels = new Set(["image-01", "image-01-live"]);
const imageRatios = new Set(["1:1", "16:9", "4:3", "3:2", "2:3", "3:4", "9:16", "21:9"]);
const ok = { status_code: 0, status_msg: "success" };

export async function startMiniMaxFake(options: { token?: string } = {}): Promise<MiniMaxFake> {
  const token = options.token ?? "minimax-test-key";
  let current: MiniMaxFakeScript = {};
  const tasks = new Map<string, Task>();
  const files = new Map<string, string>();

  const server = await startFakeServer(async (request, response) => {
    if (current.responseDelayMs) await sleep(current.responseDelayMs);
    if (header(request, "authorization") !== `Bearer ${token}` || current.fail === "unauthorized") {
      return fail(response, 1004, "login fail: Please carry the API secret key in the 'Authorization' field of the request header");
    }
    const steered = steeredFailure(request);
    if (steered) return answerFailure(response, steered);
    if (request.method === "POST" && request.path === "/v1/video_generation") return createTask(request, response);
    if (request.method === "GET" && request.path === "/v1/query/video_generation") return queryTask(request, response);
    if (request.method === "GET" && request.path === "/v1/files/retrieve") return retrieveFile(request, response);
    if (request.method === "GET" && request.path === "/v1/files/list") return listFiles(request, response);
    if (request.method === "POST" && request.path === "/v1/image_generation") return generateImages(request, response);
    return sendJson(response, 404, { base_resp: { status_code: 404, status_msg: "404 page not found" } });
  });

  /** A failure scripted for every call, or one a prompt marker asks of a create. */
  function steeredFailure(request: RecordedRequest): MiniMaxFakeFailure | null {
    if (current.fail && current.fail !== "task_failed" && current.fail !== "task_moderated") return current.fail;
    const prompt = promptOf(request);
    if (prompt.includes("[minimax:rate-limit]")) return "rate_limit";
    if (prompt.includes("[minimax:moderated]")) return "content_policy";
    return null;
  }

  function createTask(request: RecordedRequest, response: ServerResponse) {
    const body = request.body as Record<string, unknown> | null;
    const invalid = body ? invalidVideoRequest(body) : "invalid params, request body is not JSON";
    if (invalid) return fail(response, 2013, invalid);
    const prompt = promptOf(request);
    const id = String(300_000_000_000_000 + Math.floor(Math.random() * 1e14));
    const failure = prompt.includes("[minimax:task-fail]")
      ? "task_moderated"
      : current.fail === "task_failed" || current.fail === "task_moderated"
        ? current.fail
        : null;
    const delayMs = prompt.includes("[minimax:slow]") ? 60_000 : (current.delayMs ?? 300);
    tasks.set(id, {
      id,
      prompt,
      createdAt: Date.now(),
      delayMs,
      fileId: String(200_000_000_000_000 + Math.floor(Math.random() * 1e14)),
      failure,
    });
    return sendJson(response, 200, { task_id: id, base_resp: ok });
  }

  async function queryTask(request: RecordedRequest, response: ServerResponse) {
    const task = tasks.get(request.query.get("task_id") ?? "");
    if (!task) return fail(response, 2013, "invalid params, task_id not found");
    const elapsed = Date.now() - task.createdAt;
    if (elapsed < task.delayMs) {
      const status = elapsed < task.delayMs / 3 ? "Preparing" : elapsed < (2 * task.delayMs) / 3 ? "Queueing" : "Processing";
      return sendJson(response, 200, { task_id: task.id, status, file_id: "", base_resp: ok });
    }
    if (task.failure === "task_moderated")
      return sendJson(response, 200, {
        task_id: task.id,
        status: "Fail",
        file_id: "",
        base_resp: { status_code: 1027, status_msg: "output new_sensitive" },
      });
    if (task.failure === "task_failed")
      return sendJson(response, 200, {
        task_id: task.id,
        status: "Fail",
        file_id: "",
        base_resp: { status_code: 0, status_msg: "video generation failed" },
      });
    if (!files.has(task.fileId)) files.set(task.fileId, await outputUrl(task.prompt, "mp4", task.fileId));
    return sendJson(response, 200, {
      task_id: task.id,
      status: "Success",
      file_id: task.fileId,
      video_width: 1366,
      video_height: 768,
      base_resp: ok,
    });
  }

  function retrieveFile(request: RecordedRequest, response: ServerResponse) {
    const fileId = request.query.get("file_id") ?? "";
    const url = files.get(fileId);
    if (!url) return fail(response, 2013, "invalid params, file_id not found");
    const file = {
      file_id: Number(fileId),
      bytes: 0,
      created_at: Math.floor(Date.now() / 1000),
      filename: "output.mp4",
      purpose: "video_generation",
      download_url: url,
    };
    return sendJson(response, 200, { file, base_resp: ok });
  }

  async function generateImages(request: RecordedRequest, response: ServerResponse) {
    const body = request.body as Record<string, unknown> | null;
    const invalid = body ? invalidImageRequest(body) : "invalid params, request body is not JSON";
    if (invalid || !body) return fail(response, 2013, invalid ?? "invalid params");
    if (current.delayMs) await sleep(current.delayMs);
    const count = Number(body.n ?? 1);
    const prompt = promptOf(request);
    const id = randomBytes(12).toString("hex");
    if (prompt.includes("[minimax:withheld]")) {
      return sendJson(response, 200, {
        id,
        data: { image_urls: [] },
        metadata: { failed_count: String(count), success_count: "0" },
        base_resp: ok,
      });
    }
    const metadata = { failed_count: "0", success_count: String(count) };
    if (body.response_format === "base64") {
      const sample = await sampleOutput("jpg");
      return sendJson(response, 200, {
        id,
        data: { image_base64: Array.from({ length: count }, () => sample.bytes.toString("base64")) },
        metadata,
        base_resp: ok,
      });
    }
    const urls = await Promise.all(Array.from({ length: count }, (_, index) => outputUrl(prompt, "jpg", `${id}-${index}`)));
    return sendJson(response, 200, { id, data: { image_urls: urls }, metadata, base_resp: ok });
  }

  /** The file a finished job names: a real sample, or one of the refused kinds a marker asks for. */
  async function outputUrl(prompt: string, format: string, name: string): Promise<string> {
    const sample = await sampleOutput(format);
    if (prompt.includes("[minimax:output-oversized]"))
      return server.putEndlessFile(`${name}.${sample.extension}`, sample.contentType, 300 * 1024 * 1024);
    const url = server.putFile(`${name}.${sample.extension}`, sample.bytes, sample.contentType);
    return prompt.includes("[minimax:output-internal]") ? url.replace("127.0.0.1", "0.0.0.0") : url;
  }

  function listFiles(request: RecordedRequest, response: ServerResponse) {
    const purpose = request.query.get("purpose") ?? "";
    if (!["voice_clone", "prompt_audio", "t2a_async_input"].includes(purpose))
      return fail(response, 2013, "invalid params, purpose is required");
    return sendJson(response, 200, { files: [], base_resp: { status_code: 0, status_msg: "success" } });
  }

  return {
    ...server,
    token,
    script(script) {
      current = { ...script };
    },
    reset() {
      current = {};
      server.requests.length = 0;
    },
  };
}

function answerFailure(response: ServerResponse, failure: MiniMaxFakeFailure) {
  switch (failure) {
    case "rate_limit":
      return fail(response, 1002, "rate limit exceeded(RPM)");
    case "insufficient_balance":
      return fail(response, 1008, "insufficient balance");
    case "server_error":
      return fail(response, 1000, "unknown error");
    case "timeout_code":
      return fail(response, 1001, "request timeout");
    case "content_policy":
      return fail(response, 1026, "input new_sensitive");
    case "http_unavailable":
      response.writeHead(503, { "Content-Type": "text/plain" });
      response.end("upstream connect error or disconnect/reset before headers");
      return;
    case "garbled":
      return sendJson(response, 200, { task_id: "1", status: "Exploded", image_urls: 7 });
    default:
      return fail(response, 1000, "unknown error");
  }
}

function fail(response: ServerResponse, statusCode: number, statusMsg: string) {
  sendJson(
    response,
    200,
    { base_resp: { status_code: statusCode, status_msg: statusMsg } },
    { "Trace-Id": randomBytes(16).toString("hex") },
  );
}

function promptOf(request: RecordedRequest): string {
  const body = request.body as Record<string, unknown> | null;
  return typeof body?.prompt === "string" ? body.prompt : "";
}

/** What each video model takes (video-generation-t2v / -i2v): the 01 family renders 6 s at 720P only. */
const videoModelRules: Record<string, { resolutions: string[]; durations: number[]; firstFrame: "required" | "optional" | "refused" }> = {
  "MiniMax-Hailuo-2.3": { resolutions: ["768P", "1080P"], durations: [6, 10], firstFrame: "optional" },
  "MiniMax-Hailuo-2.3-Fast": { resolutions: ["768P", "1080P"], durations: [6, 10], firstFrame: "required" },
  "MiniMax-Hailuo-02": { resolutions: ["512P", "768P", "1080P"], durations: [6, 10], firstFrame: "optional" },
  "T2V-01-Director": { resolutions: ["720P"], durations: [6], firstFrame: "refused" },
  "T2V-01": { resolutions: ["720P"], durations: [6], firstFrame: "refused" },
  "I2V-01-Director": { resolutions: ["720P"], durations: [6], firstFrame: "required" },
  "I2V-01-live": { resolutions: ["720P"], durations: [6], firstFrame: "required" },
  "I2V-01": { resolutions: ["720P"], durations: [6], firstFrame: "required" },
  "S2V-01": { resolutions: ["720P"], durations: [6], firstFrame: "refused" },
};

function invalidVideoRequest(body: Record<string, unknown>): string | null {
  const rules = videoModelRules[String(body.model)];
  if (!rules) return `invalid params, model ${String(body.model)} is not supported`;
  if (body.prompt !== undefined && (typeof body.prompt !== "string" || body.prompt.length > 2000))
    return "invalid params, prompt must be a string of at most 2000 characters";
  if (body.prompt === undefined && body.first_frame_image === undefined) return "invalid params, prompt is required";
  const duration = body.duration ?? 6;
  if (!rules.durations.includes(duration as number))
    return `invalid params, duration must be ${rules.durations.join(" or ")} for ${String(body.model)}`;
  const resolution = String(body.resolution ?? (rules.resolutions.includes("768P") ? "768P" : "720P"));
  if (!rules.resolutions.includes(resolution)) return `invalid params, resolution ${resolution} is not supported by ${String(body.model)}`;
  if (resolution === "1080P" && duration !== 6) return "invalid params, 1080P supports a duration of 6 only";
  if (resolution === "512P" && body.first_frame_image === undefined) return "invalid params, 512P requires first_frame_image";
  if (rules.firstFrame === "required" && body.first_frame_image === undefined)
    return `invalid params, first_frame_image is required for ${String(body.model)}`;
  if (rules.firstFrame === "refused" && body.first_frame_image !== undefined)
    return `invalid params, ${String(body.model)} does not take first_frame_image`;
  if (body.first_frame_image !== undefined && typeof body.first_frame_image !== "string")
    return "invalid params, first_frame_image must be a URL or data URL";
  if (body.callback_url !== undefined && typeof body.callback_url !== "string") return "invalid params, callback_url must be a string";
  return null;
}

function invalidImageRequest(body: Record<string, unknown>): string | null {
  if (!imageModels.has(String(body.model))) return `invalid params, model ${String(body.model)} is not supported`;
  if (typeof body.prompt !== "string" || body.prompt === "" || body.prompt.length > 1500)
    return "invalid params, prompt is required (at most 1500 characters)";
  if (body.aspect_ratio !== undefined && !imageRatios.has(String(body.aspect_ratio)))
    return `invalid params, aspect_ratio ${String(body.aspect_ratio)} is not supported`;
  const n = body.n ?? 1;
  if (typeof n !== "number" || !Number.isInteger(n) || n < 1 || n > 9) return "invalid params, n must be an integer from 1 to 9";
  if (body.response_format !== undefined && body.response_format !== "url" && body.response_format !== "base64")
    return "invalid params, response_format must be url or base64";
  return null;
}
