import { randomBytes } from "node:crypto";
import type { ServerResponse } from "node:http";
import { catalogModelIds } from "@/tests/fakes/catalog-models";
import { header, sampleOutput, sendJson, sleep, startFakeServer, type FakeServer, type RecordedRequest } from "@/tests/fakes/fake-server";
import { openAIVideos, type OpenAIVideoScript } from "@/tests/fakes/openai-videos-fake";

// A local OpenAI Images API (https://platform.openai.com/docs/api-reference/images) for adapter
// tests: POST /v1/images/generations and the JSON form of /v1/images/edits, validated like the real
// one for GPT image models, answering `{created, data: [{b64_json}]}` after `delayMs`, with Bearer
// auth and OpenAI's `{error: {message, type, param, code}}` bodies. The Videos API (Sora) is in
// ./openai-videos-fake.ts, behind the same auth and failures (its prompt markers too). The Models
// API answers GET /v1/models `{object: "list", data}` and GET /v1/models/{model} `{id, object:
// "model", created, owned_by}` for the models in `models` (the catalog's, by default), 404
// model_not_found for any other.

export type OpenAIFakeFailure = "rate_limit" | "insufficient_quota" | "server_error" | "content_policy" | "unauthorized";
export type OpenAIFakeScript = OpenAIVideoScript & { fail?: OpenAIFakeFailure | null; delayMs?: number };

export type OpenAIFake = FakeServer & {
  token: string;
  script(script: OpenAIFakeScript): void;
  reset(): void;
  /** The ids the Models API knows. */
  models: Set<string>;
};

const models = new Set(["gpt-image-1", "gpt-image-1-mini", "gpt-image-1.5"]);
/** DALL·E's own limits (https://platform.openai.com/docs/api-reference/images/create): sizes, n, quality; no output_format. */
const dallE: Record<string, { sizes: Set<string>; maxN: number; qualities: Set<string> }> = {
  "dall-e-3": { sizes: new Set(["1024x1024", "1792x1024", "1024x1792"]), maxN: 1, qualities: new Set(["standard", "hd"]) },
  "dall-e-2": { sizes: new Set(["256x256", "512x512", "1024x1024"]), maxN: 10, qualities: new Set(["standard"]) },
};
const sizes = new Set(["auto", "1024x1024", "1536x1024", "1024x1536"]);
const formats = new Set(["png", "jpeg", "webp"]);
const qualities = new Set(["auto", "low", "medium", "high"]);

export async function startOpenAIFake(options: { token?: string } = {}): Promise<OpenAIFake> {
  const token = options.token ?? "sk-test-openai-key";
  let current: OpenAIFakeScript = {};
  const videos = openAIVideos(() => current, error);
  const served = catalogModelIds("openai");

  const server = await startFakeServer(async (request, response) => {
    if (current.delayMs) await sleep(current.delayMs);
    if (header(request, "authorization") !== `Bearer ${token}` || current.fail === "unauthorized") {
      const shown = (header(request, "authorization") ?? "").replace(/^Bearer /, "").slice(0, 5);
      return error(
        response,
        401,
        `Incorrect API key provided: ${shown}***. You can find your API key at https://platform.openai.com/account/api-keys.`,
        "invalid_request_error",
        null,
        "invalid_api_key",
      );
    }
    if (current.fail === "rate_limit") {
      return error(
        response,
        429,
        "Rate limit reached for gpt-image-1 in organization org-test on images per minute (IPM): Limit 5, Used 5, Requested 1. Please try again in 12s.",
        "requests",
        null,
        "rate_limit_exceeded",
        { "Retry-After": "12" },
      );
    }
    if (current.fail === "insufficient_quota") {
      return error(
        response,
        429,
        "You exceeded your current quota, please check your plan and billing details.",
        "insufficient_quota",
        null,
        "insufficient_quota",
      );
    }
    if (current.fail === "server_error")
      return error(response, 500, "The server had an error while processing your request. Sorry about that!", "server_error", null, null);
    if (request.method === "GET" && request.path === "/v1/models")
      return sendJson(response, 200, { object: "list", data: [...served].map(modelView) });
    const model = /^\/v1\/models\/([^/]+)$/.exec(request.path);
    if (request.method === "GET" && model) {
      const id = decodeURIComponent(model[1] ?? "");
      if (!served.has(id))
        return error(
          response,
          404,
          `The model '${id}' does not exist or you do not have access to it.`,
          "invalid_request_error",
          null,
          "model_not_found",
        );
      return sendJson(response, 200, modelView(id));
    }
    if (request.method === "POST" && (request.path === "/v1/images/generations" || request.path === "/v1/images/edits")) {
      return generate(request, response, request.path.endsWith("/edits"));
    }
    if (current.fail === "content_policy" && request.method === "POST" && request.path === "/v1/videos") {
      return error(
        response,
        400,
        "Your request was blocked by our moderation system.",
        "invalid_request_error",
        null,
        "moderation_blocked",
      );
    }
    if (await videos.route(request, response)) return;
    return error(response, 404, `Invalid URL (${request.method} ${request.path})`, "invalid_request_error", null, null);
  });

  async function generate(request: RecordedRequest, response: ServerResponse, edit: boolean) {
    const body = request.body as Record<string, unknown> | null;
    if (!body) return error(response, 400, "We could not parse the JSON body of your request.", "invalid_request_error", null, null);
    const invalid = invalidParam(body, edit);
    if (invalid) return error(response, 400, invalid.message, "invalid_request_error", invalid.param, "invalid_value");
    if (current.fail === "content_policy") {
      return error(
        response,
        400,
        "Your request was rejected as a result of our safety system. Your request may contain content that is not allowed by our safety system.",
        "image_generation_user_error",
        null,
        "moderation_blocked",
      );
    }
    const outputFormat = String(body.output_format ?? "png");
    const sample = await sampleOutput(outputFormat);
    const count = Number(body.n ?? 1);
    if (String(body.model) in dallE) {
      // DALL·E answers URLs unless response_format asks for b64_json, with the prompt it revised.
      const asUrl = body.response_format !== "b64_json";
      const item = () =>
        asUrl
          ? { url: server.putFile(`${randomBytes(8).toString("hex")}.png`, sample.bytes, "image/png"), revised_prompt: body.prompt }
          : { b64_json: sample.bytes.toString("base64"), revised_prompt: body.prompt };
      return sendJson(
        response,
        200,
        { created: Math.floor(Date.now() / 1000), data: Array.from({ length: count }, item) },
        { "x-request-id": `req_${randomBytes(16).toString("hex")}` },
      );
    }
    return sendJson(
      response,
      200,
      {
        created: Math.floor(Date.now() / 1000),
        background: "opaque",
        data: Array.from({ length: count }, () => ({ b64_json: sample.bytes.toString("base64") })),
        output_format: outputFormat,
        quality: body.quality ?? "auto",
        size: body.size ?? "auto",
        usage: {
          input_tokens: 20,
          output_tokens: 1056 * count,
          total_tokens: 20 + 1056 * count,
          input_tokens_details: { text_tokens: 20, image_tokens: 0 },
        },
      },
      { "x-request-id": `req_${randomBytes(16).toString("hex")}` },
    );
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
      videos.videos.clear();
    },
    models: served,
  };
}

function modelView(id: string) {
  return { id, object: "model", created: 1_745_000_000, owned_by: "system" };
}

function invalidParam(body: Record<string, unknown>, edit: boolean): { param: string; message: string } | null {
  if (typeof body.prompt !== "string" || body.prompt === "") return { param: "prompt", message: "Missing required parameter: 'prompt'." };
  const dallELimits = dallE[String(body.model)];
  if (dallELimits) return invalidDallEParam(body, dallELimits, edit);
  if (!models.has(String(body.model)))
    return { param: "model", message: `Invalid value: '${String(body.model)}'. Value must be a GPT image model.` };
  if (body.response_format !== undefined) return { param: "response_format", message: "Unknown parameter: 'response_format'." };
  const n = body.n ?? 1;
  if (typeof n !== "number" || !Number.isInteger(n) || n < 1 || n > 10)
    return { param: "n", message: "Invalid 'n': integer between 1 and 10 expected." };
  if (body.size !== undefined && !sizes.has(String(body.size)))
    return {
      param: "size",
      message: `Invalid value: '${String(body.size)}'. Supported values are: 'auto', '1024x1024', '1536x1024', and '1024x1536'.`,
    };
  if (body.output_format !== undefined && !formats.has(String(body.output_format))) {
    return {
      param: "output_format",
      message: `Invalid value: '${String(body.output_format)}'. Supported values are: 'png', 'jpeg', and 'webp'.`,
    };
  }
  if (body.quality !== undefined && !qualities.has(String(body.quality)))
    return { param: "quality", message: `Invalid value: '${String(body.quality)}'.` };
  if (edit && (!Array.isArray(body.images) || body.images.length === 0 || body.images.length > 16)) {
    return { param: "images", message: "Invalid 'images': between 1 and 16 image references expected." };
  }
  return null;
}

function invalidDallEParam(
  body: Record<string, unknown>,
  limits: (typeof dallE)[string],
  edit: boolean,
): { param: string; message: string } | null {
  // The JSON edits form (image references) is GPT Image's; DALL·E 2 edits are multipart uploads.
  if (edit) return { param: "model", message: `Invalid value: '${String(body.model)}'. The JSON edits form takes GPT image models only.` };
  const n = body.n ?? 1;
  if (typeof n !== "number" || !Number.isInteger(n) || n < 1 || n > limits.maxN) {
    return {
      param: "n",
      message:
        limits.maxN === 1 ? "Invalid 'n': dall-e-3 supports n=1 only." : `Invalid 'n': integer between 1 and ${limits.maxN} expected.`,
    };
  }
  if (body.size !== undefined && !limits.sizes.has(String(body.size)))
    return {
      param: "size",
      message: `Invalid value: '${String(body.size)}'. Supported values are: ${[...limits.sizes].map((size) => `'${size}'`).join(", ")}.`,
    };
  if (body.quality !== undefined && !limits.qualities.has(String(body.quality)))
    return { param: "quality", message: `Invalid value: '${String(body.quality)}'.` };
  for (const param of ["output_format", "background", "moderation", "output_compression"])
    if (body[param] !== undefined) return { param, message: `Unknown parameter: '${param}'.` };
  if (body.response_format !== undefined && body.response_format !== "url" && body.response_format !== "b64_json")
    return {
      param: "response_format",
      message: `Invalid value: '${String(body.response_format)}'. Supported values are: 'url' and 'b64_json'.`,
    };
  return null;
}

function error(
  response: ServerResponse,
  status: number,
  message: string,
  type: string,
  param: string | null,
  code: string | null,
  headers: Record<string, string> = {},
) {
  sendJson(response, status, { error: { message, type, param, code } }, headers);
}
