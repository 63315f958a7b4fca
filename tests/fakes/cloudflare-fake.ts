import type { ServerResponse } from "node:http";
import { catalogModelIds } from "@/tests/fakes/catalog-models";
import {
  header,
  heldUntil,
  sampleOutput,
  sendJson,
  startFakeServer,
  type FakeServer,
  type RecordedRequest,
} from "@/tests/fakes/fake-server";

// A local Cloudflare Workers AI REST API for adapter and HTTP tests, written from the published
// reference: "Execute AI model" POST /client/v4/accounts/{account_id}/ai/run/{model_name}
// (https://developers.cloudflare.com/api/resources/ai/methods/run/), Bearer API token, the v4
// envelope `{result, success, errors: [{code, message}], messages}`; FLUX.1 [schnell]'s input
// `{prompt (1..2048 chars), steps (≤ 8, default 4), seed}` and Lucid Origin's `{prompt, guidance
// (0..10), seed (≥ 0), width, height (0..2500), num_steps (1..40)}`, both answering `{image: base64}`
// (https://developers.cloudflare.com/workers-ai/models/flux-1-schnell/, …/lucid-origin/); the Workers AI error table
// (https://developers.cloudflare.com/workers-ai/platform/errors/): 5007 no such model (400), 3006
// too large (413), 3007 timeout (408), 3023 account blocked (403), 3036 daily allocation used up
// (429), 3040 out of capacity (429); 3030 for a prompt the NSFW filter refuses (400), 10000 for a
// refused token (401). Workers AI sends no callbacks, so there is no signature to fake. "Model
// Search" GET …/accounts/{account_id}/ai/models/search?search=&per_page= answers the models in
// `models` (the catalog's, by default) whose name or description holds the search text,
// `{result: [{id, source, name, description, task, tags, properties}], result_info}`: none for an
// unknown name (a search, not a lookup, so never a 404).
//
// Failures come from script() (adapter tests) or a `[cloudflare:<failure>]` marker in the prompt
// (the HTTP suites, whose app talks to this fake from another process); `[cloudflare:slow]` holds
// the answer (for cancels) until the client leaves.

export type CloudflareFakeFailure =
  | "rate_limit"
  | "daily_limit"
  | "server_error"
  | "content_policy"
  | "unauthorized"
  | "account_blocked"
  | "timeout"
  | "malformed"
  | "not_an_image"
  | "oversized";

export type CloudflareFakeScript = { fail?: CloudflareFakeFailure | null; delayMs?: number };

export type CloudflareFake = FakeServer & {
  token: string;
  accountId: string;
  /** The API root, as CLOUDFLARE_BASE_URL takes it (…/client/v4). */
  apiBaseUrl: string;
  /** Calls whose client left before the answer (canceled runs). */
  abandoned: string[];
  script(script: CloudflareFakeScript): void;
  reset(): void;
  /** The model names Model Search finds. */
  models: Set<string>;
};

/** Text-to-image models that answer JSON with a base64 picture, each with its published input schema. */
const models: Record<string, (body: Record<string, unknown>) => string | null> = {
  "@cf/black-forest-labs/flux-1-schnell": (body) =>
    invalidPrompt(body, 2048) ??
    invalidInteger(body, "steps", Number.MIN_SAFE_INTEGER, 8) ??
    invalidInteger(body, "seed", 0, Number.MAX_SAFE_INTEGER),
  "@cf/leonardo/lucid-origin": (body) =>
    invalidPrompt(body, Infinity) ??
    invalidInteger(body, "width", 0, 2500) ??
    invalidInteger(body, "height", 0, 2500) ??
    invalidInteger(body, "num_steps", 1, 40) ??
    invalidInteger(body, "seed", 0, Number.MAX_SAFE_INTEGER) ??
    (body.guidance !== undefined && (typeof body.guidance !== "number" || body.guidance < 0 || body.guidance > 10)
      ? "'/guidance' must be a number from 0 to 10"
      : null),
};
const SLOW_MS = 60_000;
/** Past the adapter's 16 MiB cap once base64-encoded. */
const OVERSIZED_BYTES = 13 * 1024 * 1024;

const failures: Record<CloudflareFakeFailure, { status: number; code: number; message: string } | null> = {
  rate_limit: { status: 429, code: 3040, message: "Out of capacity: No more data centers to forward the request to" },
  daily_limit: {
    status: 429,
    code: 3036,
    message:
      "You have used up your daily free allocation of 10,000 neurons. Please upgrade to Cloudflare's Workers Paid plan if you would like to continue usage.",
  },
  server_error: { status: 500, code: 3043, message: "Internal server error" },
  content_policy: { status: 400, code: 3030, message: "AiError: Input prompt contains NSFW content." },
  unauthorized: { status: 401, code: 10000, message: "Authentication error" },
  account_blocked: { status: 403, code: 3023, message: "Service unavailable for account" },
  timeout: { status: 408, code: 3007, message: "Request timeout" },
  malformed: null,
  not_an_image: null,
  oversized: null,
};

export async function startCloudflareFake(options: { token?: string; accountId?: string } = {}): Promise<CloudflareFake> {
  const token = options.token ?? "cf-test-workers-ai-token";
  const accountId = options.accountId ?? "023e105f4ecef8ad9ca31a8372d0c353";
  let current: CloudflareFakeScript = {};
  const abandoned: string[] = [];
  const served = catalogModelIds("cloudflare");

  const server = await startFakeServer(async (request, response) => {
    const search = /^\/client\/v4\/accounts\/([^/]+)\/ai\/models\/search$/.exec(request.path);
    if (search && request.method === "GET") {
      if (header(request, "authorization") !== `Bearer ${token}` || decodeURIComponent(search[1] ?? "") !== accountId)
        return envelopeError(response, 401, 10000, "Authentication error");
      return modelSearch(request, response);
    }
    const match = /^\/client\/v4\/accounts\/([^/]+)\/ai\/run\/(.+)$/.exec(request.path);
    if (!match || request.method !== "POST") return envelopeError(response, 404, 7000, "No route for that URI");
    if (header(request, "authorization") !== `Bearer ${token}` || decodeURIComponent(match[1] ?? "") !== accountId) {
      return envelopeError(response, 401, 10000, "Authentication error");
    }
    const model = decodeURIComponent(match[2] ?? "");
    const validate = models[model];
    if (!validate) return envelopeError(response, 400, 5007, `No such model ${model} or task`);
    const body = request.body as Record<string, unknown> | null;
    if (!body || typeof body !== "object") return envelopeError(response, 400, 3003, "Request is missing headers or body: body");
    const invalid = validate(body);
    if (invalid) return envelopeError(response, 400, 5006, `AiError: AiError: ${invalid}`);
    const prompt = String(body.prompt);
    const fail = current.fail ?? markedFailure(prompt);
    const delayMs = prompt.includes("[cloudflare:slow]") ? SLOW_MS : (current.delayMs ?? 0);
    if (delayMs > 0 && !(await heldUntil(delayMs, response))) {
      abandoned.push(request.path);
      return;
    }
    const failure = fail ? failures[fail] : null;
    if (failure) return envelopeError(response, failure.status, failure.code, failure.message);
    return answer(response, fail);
  });

  async function answer(response: ServerResponse, fail: CloudflareFakeFailure | null | undefined) {
    if (fail === "malformed") return sendJson(response, 200, { result: { images: [] }, success: true, errors: [], messages: [] });
    if (fail === "not_an_image")
      return sendJson(response, 200, {
        result: { image: Buffer.from("<html>not a picture</html>").toString("base64") },
        success: true,
        errors: [],
        messages: [],
      });
    const image = fail === "oversized" ? Buffer.alloc(OVERSIZED_BYTES, 0xff) : (await sampleOutput("jpeg")).bytes;
    return sendJson(
      response,
      200,
      { result: { image: image.toString("base64") }, success: true, errors: [], messages: [] },
      { "cf-ray": "8f1c2d3e4a5b6c7d-SJC" },
    );
  }

  function modelSearch(request: RecordedRequest, response: ServerResponse) {
    const text = (request.query.get("search") ?? "").toLowerCase();
    const perPage = Number(request.query.get("per_page") ?? 100);
    const hits = [...served].filter((name) => name.toLowerCase().includes(text));
    const result = hits.slice(0, perPage).map((name, index) => ({
      id: `00000000-0000-4000-8000-${String(index).padStart(12, "0")}`,
      source: 1,
      name,
      description: `${name} on the fake`,
      task: { id: "3dcf9fb2-5a3b-4d33-9b7a-9e7d1a0c6c3e", name: "Text-to-Image", description: "Generates images from input text." },
      tags: [],
      properties: [],
    }));
    sendJson(response, 200, {
      success: true,
      result,
      errors: [],
      messages: [],
      result_info: { count: result.length, page: 1, per_page: perPage, total_count: hits.length },
    });
  }

  return {
    ...server,
    token,
    accountId,
    apiBaseUrl: `${server.baseUrl}/client/v4`,
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

function invalidPrompt(body: Record<string, unknown>, maxLength: number): string | null {
  return typeof body.prompt === "string" && body.prompt.length >= 1 && body.prompt.length <= maxLength
    ? null
    : "Type mismatch of '/prompt': a string of at least 1 character is required";
}

function invalidInteger(body: Record<string, unknown>, field: string, min: number, max: number): string | null {
  const value = body[field];
  if (value === undefined) return null;
  return typeof value === "number" && Number.isInteger(value) && value >= min && value <= max
    ? null
    : `'/${field}' must be an integer from ${min} to ${max}`;
}

function markedFailure(prompt: string): CloudflareFakeFailure | null {
  const marker = /\[cloudflare:([a-z_]+)\]/.exec(prompt)?.[1];
  return marker && marker in failures ? (marker as CloudflareFakeFailure) : null;
}

function envelopeError(response: ServerResponse, status: number, code: number, message: string) {
  sendJson(response, status, { result: null, success: false, errors: [{ code, message }], messages: [] });
}
