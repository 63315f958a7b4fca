import { randomBytes } from "node:crypto";
import type { ServerResponse } from "node:http";
import { sampleOutput, sendJson, type RecordedRequest } from "@/tests/fakes/fake-server";

// OpenAI's Videos API (https://platform.openai.com/docs/api-reference/videos) as the OpenAI fake
// serves it: POST /v1/videos (multipart form: prompt, model sora-2 / sora-2-pro, seconds "4" | "8"
// | "12", size by model) answers the video object queued; it is in_progress, then completed (or
// failed with `error: {code, message}`) `videoDelayMs` after creation. GET /v1/videos/{id} reads it,
// GET /v1/videos/{id}/content is the MP4 once completed, DELETE /v1/videos/{id} removes it.

export type OpenAIVideoFailure = "moderation_blocked" | "internal_error";
export type OpenAIVideoScript = {
  /** From creation to the end of the job (default 300 ms). */
  videoDelayMs?: number;
  /** The job ends failed with this code. */
  videoFailure?: OpenAIVideoFailure | null;
  /** The content answer has this many bytes (an MP4 header and padding), for the byte cap. */
  contentBytes?: number;
  /** GET /v1/videos/{id} answers this instead of a video object. */
  videoAnswer?: unknown;
};

type Video = {
  id: string;
  model: string;
  seconds: string;
  size: string;
  prompt: string;
  createdAt: number;
  endsAt: number;
  failure: OpenAIVideoFailure | null;
};

const sizesByModel: Record<string, readonly string[]> = {
  "sora-2": ["720x1280", "1280x720"],
  "sora-2-pro": ["720x1280", "1280x720", "1024x1792", "1792x1024"],
};
const secondsAllowed = new Set(["4", "8", "12"]);
const failureMessages: Record<OpenAIVideoFailure, string> = {
  moderation_blocked: "Your request was blocked by our moderation system.",
  internal_error: "Video generation failed due to an internal error. Please try again.",
};

export type OpenAIError = (
  response: ServerResponse,
  status: number,
  message: string,
  type: string,
  param: string | null,
  code: string | null,
) => void;

export function openAIVideos(script: () => OpenAIVideoScript, error: OpenAIError) {
  const videos = new Map<string, Video>();

  function view(video: Video) {
    const now = Date.now();
    const ended = now >= video.endsAt;
    const status = !ended
      ? now >= video.createdAt + (video.endsAt - video.createdAt) / 2
        ? "in_progress"
        : "queued"
      : video.failure
        ? "failed"
        : "completed";
    return {
      id: video.id,
      object: "video",
      model: video.model,
      status,
      progress: ended ? 100 : 0,
      created_at: Math.floor(video.createdAt / 1000),
      completed_at: ended ? Math.floor(video.endsAt / 1000) : null,
      expires_at: ended && !video.failure ? Math.floor(video.endsAt / 1000) + 3600 : null,
      prompt: video.prompt,
      seconds: video.seconds,
      size: video.size,
      remixed_from_video_id: null,
      error: ended && video.failure ? { code: video.failure, message: failureMessages[video.failure] } : null,
    };
  }

  async function route(request: RecordedRequest, response: ServerResponse): Promise<boolean> {
    if (request.path === "/v1/videos" && request.method === "POST") {
      create(request, response);
      return true;
    }
    const match = /^\/v1\/videos\/([^/]+)(\/content)?$/.exec(request.path);
    if (!match) return false;
    const video = videos.get(decodeURIComponent(match[1] ?? ""));
    if (!video) {
      error(response, 404, `Video with id '${match[1]}' not found.`, "invalid_request_error", null, "video_not_found");
      return true;
    }
    if (match[2] && request.method === "GET") await content(video, response);
    else if (request.method === "GET") {
      const answer = script().videoAnswer;
      sendJson(response, 200, answer === undefined ? view(video) : answer);
    } else if (request.method === "DELETE") {
      videos.delete(video.id);
      sendJson(response, 200, { id: video.id, object: "video.deleted", deleted: true });
    } else error(response, 405, `Method ${request.method} not allowed.`, "invalid_request_error", null, null);
    return true;
  }

  function create(request: RecordedRequest, response: ServerResponse) {
    const fields = multipartFields(request);
    if (!fields) return error(response, 400, "Expected a multipart/form-data body.", "invalid_request_error", null, null);
    const model = fields.model ?? "sora-2";
    const seconds = fields.seconds ?? "4";
    const size = fields.size ?? "720x1280";
    if (!fields.prompt)
      return error(response, 400, "Missing required parameter: 'prompt'.", "invalid_request_error", "prompt", "missing_required_parameter");
    const modelSizes = sizesByModel[model];
    if (!modelSizes)
      return error(
        response,
        400,
        `Invalid value: '${model}'. Supported values are: 'sora-2' and 'sora-2-pro'.`,
        "invalid_request_error",
        "model",
        "invalid_value",
      );
    if (!secondsAllowed.has(seconds))
      return error(
        response,
        400,
        `Invalid value: '${seconds}'. Supported values are: '4', '8', and '12'.`,
        "invalid_request_error",
        "seconds",
        "invalid_value",
      );
    if (!modelSizes.includes(size))
      return error(
        response,
        400,
        `Invalid value: '${size}'. Supported values are: ${modelSizes.map((s) => `'${s}'`).join(", ")}.`,
        "invalid_request_error",
        "size",
        "invalid_value",
      );
    const now = Date.now();
    const { videoDelayMs: delayMs = 300, videoFailure = null } = { ...script(), ...promptScript(fields.prompt) };
    const video: Video = {
      id: `video_${randomBytes(16).toString("hex")}`,
      model,
      seconds,
      size,
      prompt: fields.prompt,
      createdAt: now,
      endsAt: now + delayMs,
      failure: videoFailure,
    };
    videos.set(video.id, video);
    sendJson(response, 200, view(video));
  }

  async function content(video: Video, response: ServerResponse) {
    if (view(video).status !== "completed")
      return error(
        response,
        404,
        "Video is not ready yet, use GET /v1/videos/{video_id} to check status.",
        "invalid_request_error",
        null,
        null,
      );
    const sample = await sampleOutput("mp4");
    const size = script().contentBytes;
    const bytes = size ? Buffer.concat([sample.bytes, Buffer.alloc(Math.max(0, size - sample.bytes.byteLength))]) : sample.bytes;
    response.writeHead(200, { "Content-Type": "video/mp4", "Content-Length": String(bytes.byteLength) });
    response.end(bytes);
  }

  return { route, videos };
}

/**
 * What the app's suites (which share one fake and cannot script it) ask for in the prompt:
 * `[openai:moderated]`, `[openai:internal]` end the job failed, `[openai:slow]` keeps it running.
 */
function promptScript(prompt: string): OpenAIVideoScript {
  if (prompt.includes("[openai:moderated]")) return { videoDelayMs: 100, videoFailure: "moderation_blocked" };
  if (prompt.includes("[openai:internal]")) return { videoDelayMs: 100, videoFailure: "internal_error" };
  if (prompt.includes("[openai:slow]")) return { videoDelayMs: 120_000 };
  return {};
}

/** The text fields of a multipart/form-data body; null when the body is not one. */
export function multipartFields(request: RecordedRequest): Record<string, string> | null {
  const boundary = /boundary=([^;]+)/.exec(String(request.headers["content-type"] ?? ""))?.[1];
  if (!String(request.headers["content-type"] ?? "").startsWith("multipart/form-data") || !boundary) return null;
  const fields: Record<string, string> = {};
  for (const part of request.rawBody.split(`--${boundary}`)) {
    const [head, ...rest] = part.split("\r\n\r\n");
    const name = /name="([^"]+)"/.exec(head ?? "")?.[1];
    if (name) fields[name] = rest.join("\r\n\r\n").replace(/\r\n$/, "");
  }
  return fields;
}
