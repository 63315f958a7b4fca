import { randomBytes } from "node:crypto";
import type { ServerResponse } from "node:http";
import { catalogModelIds } from "@/tests/fakes/catalog-models";
import { header, sampleOutput, sendJson, startFakeServer, type FakeServer, type RecordedRequest } from "@/tests/fakes/fake-server";

// A local Gemini API for adapter and HTTP tests, written from the published reference
// (https://ai.google.dev/api): the key in `x-goog-api-key` (or `?key=`); POST
// /v1beta/models/{model}:predict for Imagen (`{instances: [{prompt}], parameters: {sampleCount 1–4,
// aspectRatio}}` → `{predictions: [{bytesBase64Encoded, mimeType}]}`, a filtered picture left out,
// https://ai.google.dev/gemini-api/docs/imagen); :generateContent for Gemini image models (`contents[].parts`
// text and inlineData, `generationConfig.responseModalities`, `imageConfig.aspectRatio` →
// `candidates[].content.parts[].inlineData`, `finishReason`, `promptFeedback.blockReason`,
// https://ai.google.dev/gemini-api/docs/image-generation); :predictLongRunning for Veo (→ an operation
// `{name: "models/{model}/operations/{id}"}`, GET /v1beta/{name} → `{done, response: {generateVideoResponse:
// {generatedSamples: [{video: {uri}}]}}}` or `{done, error}`, https://ai.google.dev/gemini-api/docs/video), the video
// at /v1beta/files/{id}:download?alt=media with the key. Errors are google.rpc.Status `{error: {code,
// message, status, details}}` (https://ai.google.dev/gemini-api/docs/troubleshooting): 400
// INVALID_ARGUMENT (an invalid key too, reason API_KEY_INVALID), 400 FAILED_PRECONDITION, 403
// PERMISSION_DENIED, 404 NOT_FOUND, 429 RESOURCE_EXHAUSTED with RetryInfo, 500 INTERNAL, 503
// UNAVAILABLE, 504 DEADLINE_EXCEEDED. The Gemini API sends no callbacks, so there is no signature.
//
// Failures come from script() (adapter tests) or a `[google:<failure>]` marker in the prompt (the
// HTTP suites); `[google:slow]` holds an image answer until the client leaves, and keeps a Veo
// operation running. models.list (GET /v1beta/models) and models.get (GET /v1beta/models/{model})
// answer Model `{name, version, displayName, supportedGenerationMethods, …}` for the models in
// `models` (the catalog's, by default), 404 NOT_FOUND for any other.

export type GoogleFakeFailure =
  | "rate_limit"
  | "server_error"
  | "overloaded"
  | "deadline"
  | "bad_key"
  | "permission_denied"
  | "location"
  | "invalid_argument"
  | "blocked"
  | "malformed"
  | "oversized"
  | "operation_error";

export type GoogleFakeScript = {
  fail?: GoogleFakeFailure | null;
  delayMs?: number;
  pollsUntilDone?: number;
  /** Answer parts as `inline_data` / `mime_type`. */ snakeCase?: boolean;
};

export type GoogleFake = FakeServer & {
  apiKey: string;
  /** Calls whose client left before the answer (canceled image calls). */
  abandoned: string[];
  script(script: GoogleFakeScript): void;
  reset(): void;
  /** The model ids models.get knows. */
  models: Set<string>;
};

const imagenRatios = new Set(["1:1", "3:4", "4:3", "9:16", "16:9"]);
const geminiRatios = new Set(["1:1", "2:3", "3:2", "3:4", "4:3", "4:5", "5:4", "9:16", "16:9", "21:9"]);
const SLOW_MS = 60_000;
/** Past the adapter's 64 MiB cap once base64-encoded. */
const OVERSIZED_BYTES = 50 * 1024 * 1024;

const failures: Record<
  Exclude<GoogleFakeFailure, "blocked" | "malformed" | "oversized" | "operation_error">,
  { code: number; status: string; message: string; details?: unknown[] }
> = {
  rate_limit: {
    code: 429,
    status: "RESOURCE_EXHAUSTED",
    message: "You exceeded your current quota, please check your plan and billing details.",
    details: [
      {
        "@type": "type.googleapis.com/google.rpc.QuotaFailure",
        violations: [
          {
            quotaMetric: "generativelanguage.googleapis.com/generate_requests_per_model",
            quotaId: "GenerateRequestsPerMinutePerProjectPerModel",
          },
        ],
      },
      { "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "20s" },
    ],
  },
  server_error: {
    code: 500,
    status: "INTERNAL",
    message: "An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting",
  },
  overloaded: { code: 503, status: "UNAVAILABLE", message: "The model is overloaded. Please try again later." },
  deadline: { code: 504, status: "DEADLINE_EXCEEDED", message: "Deadline expired before operation could complete." },
  bad_key: {
    code: 400,
    status: "INVALID_ARGUMENT",
    message: "API key not valid. Please pass a valid API key.",
    details: [
      {
        "@type": "type.googleapis.com/google.rpc.ErrorInfo",
        reason: "API_KEY_INVALID",
        domain: "googleapis.com",
        metadata: { service: "generativelanguage.googleapis.com" },
      },
    ],
  },
  permission_denied: {
    code: 403,
    status: "PERMISSION_DENIED",
    message:
      "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
  },
  location: { code: 400, status: "FAILED_PRECONDITION", message: "User location is not supported for the API use." },
  invalid_argument: { code: 400, status: "INVALID_ARGUMENT", message: "Request contains an invalid argument." },
};

type Operation = { model: string; polls: number; pollsUntilDone: number; fail: GoogleFakeFailure | null; slow: boolean };

export async function startGoogleFake(options: { apiKey?: string } = {}): Promise<GoogleFake> {
  const apiKey = options.apiKey ?? "AIzaSyFakeGeminiKey0123456789abcdefghi";
  let current: GoogleFakeScript = {};
  const abandoned: string[] = [];
  const operations = new Map<string, Operation>();
  const videos = new Set<string>();
  const served = catalogModelIds("google");

  const server = await startFakeServer(async (request, response) => {
    const key = header(request, "x-goog-api-key") ?? request.query.get("key");
    if (!key) return rpcError(response, failures.permission_denied);
    if (key !== apiKey) return rpcError(response, failures.bad_key);
    if (request.method === "GET" && request.path === "/v1beta/models")
      return sendJson(response, 200, { models: [...served].map(modelView) });
    const model = /^\/v1beta\/models\/([^/:]+)$/.exec(request.path);
    if (model && request.method === "GET") {
      const id = decodeURIComponent(model[1] ?? "");
      return served.has(id)
        ? sendJson(response, 200, modelView(id))
        : rpcError(response, { code: 404, status: "NOT_FOUND", message: `models/${id} is not found for API version v1beta.` });
    }
    const method = /^\/v1beta\/models\/([^/:]+):(predict|generateContent|predictLongRunning)$/.exec(request.path);
    if (method && request.method === "POST") return runMethod(request, response, decodeURIComponent(method[1] ?? ""), method[2] ?? "");
    const operation = /^\/v1beta\/models\/([^/]+)\/operations\/([^/]+)$/.exec(request.path);
    if (operation && request.method === "GET") return readOperation(response, `models/${operation[1]}/operations/${operation[2]}`);
    const file = /^\/v1beta\/files\/([^/:]+):download$/.exec(request.path);
    if (file && request.method === "GET" && videos.has(file[1] ?? "")) {
      const video = await sampleOutput("mp4");
      response.writeHead(200, { "Content-Type": "video/mp4", "Content-Length": video.bytes.length });
      return void response.end(video.bytes);
    }
    return rpcError(response, { code: 404, status: "NOT_FOUND", message: `Requested entity was not found.` });
  });

  async function runMethod(request: RecordedRequest, response: ServerResponse, model: string, method: string) {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const family = model.startsWith("imagen-") ? "predict" : model.startsWith("veo-") ? "predictLongRunning" : "generateContent";
    if (family !== method)
      return rpcError(response, {
        code: 404,
        status: "NOT_FOUND",
        message: `models/${model} is not found for API version v1beta, or is not supported for ${method}.`,
      });
    const invalid = method === "generateContent" ? invalidGenerateContent(body) : invalidPredict(body, model, method === "predict");
    if (invalid) return rpcError(response, { code: 400, status: "INVALID_ARGUMENT", message: invalid });
    const prompt = promptOf(body);
    const fail = current.fail ?? markedFailure(prompt);
    if (method === "predictLongRunning") {
      if (fail && fail in failures && fail !== "operation_error") return rpcError(response, failures[fail as keyof typeof failures]);
      const name = `models/${model}/operations/${randomBytes(6).toString("hex")}`;
      operations.set(name, { model, polls: 0, pollsUntilDone: current.pollsUntilDone ?? 1, fail, slow: prompt.includes("[google:slow]") });
      return sendJson(response, 200, { name });
    }
    const delayMs = prompt.includes("[google:slow]") ? SLOW_MS : (current.delayMs ?? 0);
    if (delayMs > 0 && !(await heldUntil(delayMs, response))) {
      abandoned.push(request.path);
      return;
    }
    if (fail && fail in failures) return rpcError(response, failures[fail as keyof typeof failures]);
    if (method === "predict") return predictAnswer(response, body, fail);
    return generateContentAnswer(response, fail);
  }

  async function predictAnswer(response: ServerResponse, body: Record<string, unknown>, fail: GoogleFakeFailure | null) {
    if (fail === "malformed") return sendJson(response, 200, { predictions: "not a list" });
    // Every picture filtered: Imagen answers without them.
    if (fail === "blocked") return sendJson(response, 200, {});
    const count = Number((body.parameters as Record<string, unknown> | undefined)?.sampleCount ?? 4);
    const png = fail === "oversized" ? Buffer.alloc(OVERSIZED_BYTES, 0x89) : (await sampleOutput("png")).bytes;
    return sendJson(response, 200, {
      predictions: Array.from({ length: count }, () => ({ mimeType: "image/png", bytesBase64Encoded: png.toString("base64") })),
    });
  }

  async function generateContentAnswer(response: ServerResponse, fail: GoogleFakeFailure | null) {
    if (fail === "malformed")
      return sendJson(response, 200, {
        candidates: [
          { content: { parts: [{ text: "Here is a description instead of a picture." }], role: "model" }, finishReason: "STOP" },
        ],
      });
    if (fail === "blocked")
      return sendJson(response, 200, {
        promptFeedback: { blockReason: "PROHIBITED_CONTENT" },
        usageMetadata: { promptTokenCount: 12, totalTokenCount: 12 },
      });
    const png = fail === "oversized" ? Buffer.alloc(OVERSIZED_BYTES, 0x89) : (await sampleOutput("png")).bytes;
    return sendJson(response, 200, {
      candidates: [
        {
          content: { parts: [imagePart(png.toString("base64"), current.snakeCase ?? false)], role: "model" },
          finishReason: "STOP",
          index: 0,
        },
      ],
      usageMetadata: { promptTokenCount: 12, candidatesTokenCount: 1290, totalTokenCount: 1302 },
      modelVersion: "gemini-2.5-flash-image",
    });
  }

  function readOperation(response: ServerResponse, name: string) {
    const operation = operations.get(name);
    if (!operation) return rpcError(response, { code: 404, status: "NOT_FOUND", message: `Operation ${name} not found.` });
    operation.polls += 1;
    const fail = current.fail;
    if (fail && fail in failures) return rpcError(response, failures[fail as keyof typeof failures]);
    if (operation.slow || operation.polls < operation.pollsUntilDone) return sendJson(response, 200, { name });
    if (operation.fail === "operation_error")
      return sendJson(response, 200, {
        name,
        done: true,
        error: { code: 13, message: "Video generation failed due to an internal error." },
      });
    if (operation.fail === "malformed")
      return sendJson(response, 200, {
        name,
        done: true,
        response: { "@type": "type.googleapis.com/google.ai.generativelanguage.v1beta.PredictLongRunningResponse" },
      });
    if (operation.fail === "blocked") {
      const reasons = ["We encountered an issue with the audio for your prompt. You have not been charged. Please try a different prompt."];
      return sendJson(response, 200, {
        name,
        done: true,
        response: { generateVideoResponse: { raiMediaFilteredCount: 1, raiMediaFilteredReasons: reasons } },
      });
    }
    const file = randomBytes(6).toString("hex");
    videos.add(file);
    // An oversized video: a file that declares 300 MB, past any output cap.
    const uri =
      operation.fail === "oversized"
        ? server.putEndlessFile(`${file}.mp4`, "video/mp4", 300 * 1024 * 1024)
        : `${server.baseUrl}/v1beta/files/${file}:download?alt=media`;
    return sendJson(response, 200, {
      name,
      done: true,
      response: {
        "@type": "type.googleapis.com/google.ai.generativelanguage.v1beta.PredictLongRunningResponse",
        generateVideoResponse: { generatedSamples: [{ video: { uri } }] },
      },
    });
  }

  return {
    ...server,
    apiKey,
    abandoned,
    script(script) {
      current = { ...script };
    },
    reset() {
      current = {};
      server.requests.length = 0;
      abandoned.length = 0;
    },
    models: served,
  };
}

/** A Model resource as models.get answers it. */
function modelView(id: string) {
  const method = id.startsWith("imagen-") ? "predict" : id.startsWith("veo-") ? "predictLongRunning" : "generateContent";
  return {
    name: `models/${id}`,
    version: "001",
    displayName: id,
    description: `${id} on the fake`,
    inputTokenLimit: 480,
    outputTokenLimit: 8192,
    supportedGenerationMethods: [method],
  };
}

function imagePart(data: string, snakeCase: boolean) {
  return snakeCase ? { inline_data: { mime_type: "image/png", data } } : { inlineData: { mimeType: "image/png", data } };
}

function promptOf(body: Record<string, unknown>): string {
  const instance = Array.isArray(body.instances) ? (body.instances[0] as Record<string, unknown> | undefined) : undefined;
  if (typeof instance?.prompt === "string") return instance.prompt;
  const content = Array.isArray(body.contents) ? (body.contents[0] as { parts?: Array<{ text?: unknown }> } | undefined) : undefined;
  return (content?.parts ?? []).map((part) => (typeof part.text === "string" ? part.text : "")).join(" ");
}

function invalidPredict(body: Record<string, unknown>, model: string, imagen: boolean): string | null {
  const instances = body.instances;
  if (!Array.isArray(instances) || instances.length !== 1 || typeof (instances[0] as Record<string, unknown>).prompt !== "string")
    return "* instances: exactly one instance with a prompt is required";
  const parameters = (body.parameters ?? {}) as Record<string, unknown>;
  if (imagen) {
    const count = parameters.sampleCount;
    if (count !== undefined && (!Number.isInteger(count) || (count as number) < 1 || (count as number) > 4))
      return "Number of images must be in the range [1, 4].";
    if (model.startsWith("imagen-4.0-ultra") && count !== undefined && count !== 1)
      return "Imagen 4 Ultra generates one image per request.";
    if (parameters.aspectRatio !== undefined && !imagenRatios.has(String(parameters.aspectRatio)))
      return `Unsupported aspect ratio: ${String(parameters.aspectRatio)}`;
    return null;
  }
  return invalidVeo(model, instances[0] as Record<string, unknown>, parameters);
}

/** Veo's options by model (https://ai.google.dev/gemini-api/docs/video): Veo 2 is 720p, 5–8 s; Veo 3 8 s; Veo 3.1 4, 6 or 8 s and a last frame. */
function invalidVeo(model: string, instance: Record<string, unknown>, parameters: Record<string, unknown>): string | null {
  const veo2 = model.startsWith("veo-2.");
  const veo31 = model.startsWith("veo-3.1");
  if (parameters.aspectRatio !== undefined && !["16:9", "9:16"].includes(String(parameters.aspectRatio)))
    return "aspectRatio must be 16:9 or 9:16";
  if (veo2 && parameters.resolution !== undefined) return "resolution is not supported by this model";
  if (parameters.resolution !== undefined && !["720p", "1080p"].includes(String(parameters.resolution)))
    return "resolution must be 720p or 1080p";
  if (parameters.resolution === "1080p" && parameters.aspectRatio === "9:16" && !veo31) return "1080p is only supported for 16:9";
  const durations = veo2 ? [5, 6, 7, 8] : veo31 ? [4, 6, 8] : [8];
  if (parameters.durationSeconds !== undefined && !durations.includes(Number(parameters.durationSeconds)))
    return `durationSeconds must be one of ${durations.join(", ")}`;
  if (veo31 && parameters.resolution === "1080p" && (parameters.durationSeconds ?? 8) !== 8) return "1080p is only supported for 8s videos";
  for (const field of ["image", "lastFrame"]) {
    const frame = instance[field] as { bytesBase64Encoded?: unknown; mimeType?: unknown } | undefined;
    if (frame !== undefined && (typeof frame.bytesBase64Encoded !== "string" || typeof frame.mimeType !== "string"))
      return `* instances[0].${field}: bytesBase64Encoded and mimeType are required`;
  }
  if (instance.lastFrame !== undefined && (!veo31 || instance.image === undefined))
    return "lastFrame is supported only with an image, on Veo 3.1";
  return null;
}

function invalidGenerateContent(body: Record<string, unknown>): string | null {
  const contents = body.contents as Array<{ parts?: unknown }> | undefined;
  if (!Array.isArray(contents) || contents.length === 0) return "* GenerateContentRequest.contents: contents is not specified";
  for (const part of contents.flatMap((content) =>
    Array.isArray(content.parts) ? (content.parts as Array<Record<string, unknown>>) : [],
  )) {
    const inline = (part.inlineData ?? part.inline_data) as { mimeType?: unknown; mime_type?: unknown; data?: unknown } | undefined;
    if (inline && (typeof inline.data !== "string" || typeof (inline.mimeType ?? inline.mime_type) !== "string"))
      return "* inlineData: mimeType and data are required";
  }
  const config = (body.generationConfig ?? {}) as { imageConfig?: { aspectRatio?: unknown } };
  const ratio = config.imageConfig?.aspectRatio;
  if (ratio !== undefined && !geminiRatios.has(String(ratio))) return `Unsupported aspect ratio: ${String(ratio)}`;
  return null;
}

function markedFailure(prompt: string): GoogleFakeFailure | null {
  const marker = /\[google:([a-z_]+)\]/.exec(prompt)?.[1];
  return marker && marker !== "slow" ? (marker as GoogleFakeFailure) : null;
}

function heldUntil(ms: number, response: ServerResponse): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(!response.destroyed), ms);
    response.once("close", () => {
      clearTimeout(timer);
      resolve(false);
    });
  });
}

function rpcError(response: ServerResponse, error: { code: number; status: string; message: string; details?: unknown[] }) {
  sendJson(response, error.code, {
    error: { code: error.code, message: error.message, status: error.status, ...(error.details ? { details: error.details } : {}) },
  });
}
