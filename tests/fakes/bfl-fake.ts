import { createHmac, randomUUID } from "node:crypto";
import type { ServerResponse } from "node:http";
import {
  header,
  sampleOutput,
  sendJson,
  sleep,
  startFakeServer,
  type FakeFailure,
  type FakeScript,
  type FakeServer,
  type RecordedRequest,
} from "@/tests/fakes/fake-server";

// A local Black Forest Labs API, written from its OpenAPI document (https://api.bfl.ai/openapi.json,
// as published on docs.bfl.ai/api-reference) and its webhook guide: `POST /v1/{model}` with the
// `x-key` header answers AsyncResponse `{id, polling_url, cost, input_mp, output_mp}` (or, with a
// webhook_url, AsyncWebhookResponse `{id, status, webhook_url}`); `GET /v1/get_result?id=` answers
// ResultResponse `{id, status, result, progress, details, preview}` with StatusResponse
// `Pending → Ready | Error | Request Moderated | Content Moderated`, or `Task not found`. Errors are
// FastAPI's `{detail}`: 403 without a valid key, 402 out of credits, 429 past the active-task
// limit, 422 HTTPValidationError. A finished task with a webhook_url is POSTed there, signed
// `X-BFL-Signature: sha256=<hex HMAC-SHA256 of the body>` with the task's webhook_secret.
// Prompt markers, for suites that cannot script the fake (the HTTP ones): "[bfl:request-moderated]",
// "[bfl:content-moderated]", "[bfl:error]" (the task ends in Error), "[bfl:rate-limit]" (the
// submit answers 429), "[bfl:slow=<ms>]", "[bfl:output-oversized]" (an endless sample),
// "[bfl:garbled]" (a result answer in no published shape). GET /v1/credits answers CreditsResponse
// `{credits}` (BFL publishes no model read endpoint).

type BflFailure = FakeFailure | "insufficient_credits";
export type BflScript = Omit<FakeScript, "fail"> & {
  fail?: BflFailure | null;
  /** The origin the submit answer's polling_url names (default: this fake's own). */
  pollingOrigin?: string;
};

type TaskEnd = "Ready" | "Error" | "Request Moderated" | "Content Moderated";

type FakeTask = {
  id: string;
  model: string;
  input: Record<string, unknown>;
  createdAt: number;
  finishAt: number;
  end: TaskEnd;
  errorText: string;
  sample: string | null;
  webhookUrl: string | null;
  webhookSecret: string | null;
};

export type BflFake = FakeServer & {
  apiKey: string;
  script(script: BflScript): void;
  reset(): void;
  task(id: string): FakeTask | undefined;
  /** What GET /v1/credits answers. */
  credits: number;
};

const MODELS = new Set(["flux-pro-1.1", "flux-dev", "flux-pro-1.1-ultra", "flux-kontext-pro", "flux-kontext-max"]);
/** FluxPro11Inputs and FluxDevInputs: width and height, 256–1440 in multiples of 32; no aspect_ratio. */
const PIXEL_MODELS = new Set(["flux-pro-1.1", "flux-dev"]);
const DEFAULT_DELAY_MS = 150;

export async function startBflFake(options: { apiKey?: string } = {}): Promise<BflFake> {
  const apiKey = options.apiKey ?? "bfl_test_key";
  const tasks = new Map<string, FakeTask>();
  let current: BflScript = {};

  const server = await startFakeServer(async (request, response) => {
    if (current.responseDelayMs) await sleep(current.responseDelayMs);
    if (header(request, "x-key") !== apiKey || current.fail === "unauthorized")
      return sendJson(response, 403, { detail: "Not authenticated" });
    if (current.fail === "rate_limit") return tooManyActiveTasks(response);
    if (current.fail === "insufficient_credits")
      return sendJson(response, 402, { detail: "Insufficient credits. Please add credits at https://dashboard.bfl.ai" });
    if (current.fail === "server_error") return sendJson(response, 500, { detail: "Internal Server Error" });

    if (request.method === "GET" && request.path === "/v1/credits") return sendJson(response, 200, { credits: fake.credits });
    const model = request.path.startsWith("/v1/") ? request.path.slice("/v1/".length) : "";
    if (request.method === "POST" && MODELS.has(model)) return create(request, response, model);
    if (request.method === "GET" && request.path === "/v1/get_result") return result(request, response);
    return sendJson(response, 404, { detail: "Not Found" });
  });

  async function create(request: RecordedRequest, response: ServerResponse, model: string) {
    const input = request.body;
    if (typeof input !== "object" || input === null || Array.isArray(input))
      return validationError(response, ["body"], "Input should be a valid dictionary", "dict_type");
    const problem = invalidField(model, input as Record<string, unknown>);
    if (problem) return validationError(response, ["body", problem.field], problem.msg, problem.type);
    const fields = input as Record<string, unknown>;
    const prompt = typeof fields.prompt === "string" ? fields.prompt : "";
    if (prompt.includes("[bfl:rate-limit]")) return tooManyActiveTasks(response);
    const slowMs = Number(/\[bfl:slow=(\d+)\]/.exec(prompt)?.[1] ?? Number.NaN);
    const now = Date.now();
    const end: TaskEnd =
      prompt.includes("[bfl:request-moderated]") || current.fail === "content_policy"
        ? "Request Moderated"
        : prompt.includes("[bfl:content-moderated]")
          ? "Content Moderated"
          : current.fail === "prediction_failed" || prompt.includes("[bfl:error]")
            ? "Error"
            : "Ready";
    const task: FakeTask = {
      id: randomUUID(),
      model,
      input: fields,
      createdAt: now,
      finishAt: now + (Number.isFinite(slowMs) ? slowMs : (current.delayMs ?? DEFAULT_DELAY_MS)),
      end,
      errorText: current.errorText ?? "Failed to generate image: internal error",
      sample: end === "Ready" ? await renderSample(model, fields, prompt) : null,
      webhookUrl: typeof fields.webhook_url === "string" ? fields.webhook_url : null,
      webhookSecret: typeof fields.webhook_secret === "string" ? fields.webhook_secret : null,
    };
    tasks.set(task.id, task);
    server.later(task.finishAt - now, () => void deliver(task));
    const cost = model.includes("ultra") ? 6 : model.includes("max") ? 8 : model === "flux-dev" ? 2.5 : 4;
    const usage = { cost, input_mp: 0, output_mp: 1.05 };
    if (task.webhookUrl) return sendJson(response, 200, { id: task.id, status: "Pending", webhook_url: task.webhookUrl, ...usage });
    return sendJson(response, 200, {
      id: task.id,
      polling_url: `${current.pollingOrigin ?? server.baseUrl}/v1/get_result?id=${task.id}`,
      ...usage,
    });
  }

  function result(request: RecordedRequest, response: ServerResponse) {
    const id = request.query.get("id");
    if (!id) return validationError(response, ["query", "id"], "Field required", "missing");
    const task = tasks.get(id);
    if (!task) return sendJson(response, 404, { id, status: "Task not found", result: null, progress: null, details: null, preview: null });
    if (String(task.input.prompt ?? "").includes("[bfl:garbled]"))
      return sendJson(response, 200, { task: id, state: "done", image: task.sample });
    return sendJson(response, 200, view(task));
  }

  async function renderSample(model: string, input: Record<string, unknown>, prompt: string): Promise<string> {
    const name = `${randomUUID()}/sample`;
    if (prompt.includes("[bfl:output-oversized]")) return server.putEndlessFile(`${name}.png`, "image/png", 1024 * 1024 * 1024);
    const format = typeof input.output_format === "string" ? input.output_format : model === "flux-pro-1.1-ultra" ? "jpeg" : "png";
    const sample = await sampleOutput(format);
    return server.putFile(`${name}.${sample.extension}`, sample.bytes, sample.contentType);
  }

  function view(task: FakeTask) {
    const now = Date.now();
    const done = now >= task.finishAt;
    const base = { id: task.id, preview: null };
    if (!done)
      return {
        ...base,
        status: "Pending",
        result: null,
        progress: Math.min(99, Math.round(((now - task.createdAt) / (task.finishAt - task.createdAt)) * 100)),
        details: null,
      };
    if (task.end === "Ready") {
      const duration = (task.finishAt - task.createdAt) / 1000;
      const timing = { start_time: task.createdAt / 1000, end_time: task.finishAt / 1000, duration };
      return {
        ...base,
        status: "Ready",
        result: { sample: task.sample, prompt: task.input.prompt, seed: task.input.seed ?? 0, ...timing },
        progress: null,
        details: null,
      };
    }
    if (task.end === "Error") return { ...base, status: "Error", result: null, progress: null, details: { error: task.errorText } };
    const reason = task.end === "Request Moderated" ? "Derivative Works Filter" : "NSFW";
    return { ...base, status: task.end, result: null, progress: null, details: { "Moderation Reasons": [reason] } };
  }

  async function deliver(task: FakeTask) {
    // Timers may fire a millisecond before the wall clock says so: the end is now, whatever it says.
    task.finishAt = Math.min(task.finishAt, Date.now());
    if (!task.webhookUrl) return;
    const body = JSON.stringify(view(task));
    const headers: Record<string, string> = {};
    if (task.webhookSecret) headers["X-BFL-Signature"] = `sha256=${createHmac("sha256", task.webhookSecret).update(body).digest("hex")}`;
    await server.deliverWebhook(task.webhookUrl, headers, body);
  }

  const fake: BflFake = {
    ...server,
    apiKey,
    script(script) {
      current = { ...script };
    },
    reset() {
      current = {};
      server.requests.length = 0;
      server.webhooks.length = 0;
    },
    task: (id) => tasks.get(id),
    credits: 1250.5,
  };
  return fake;
}

/** The first field the published input schema refuses, as FastAPI names it. */
function invalidField(model: string, input: Record<string, unknown>): { field: string; msg: string; type: string } | null {
  if (model.startsWith("flux-kontext") && typeof input.prompt !== "string")
    return { field: "prompt", msg: "Field required", type: "missing" };
  if (input.output_format !== undefined && input.output_format !== "jpeg" && input.output_format !== "png") {
    return { field: "output_format", msg: "Input should be 'jpeg' or 'png'", type: "enum" };
  }
  if (input.seed !== undefined && !Number.isInteger(input.seed))
    return { field: "seed", msg: "Input should be a valid integer", type: "int_type" };
  for (const side of ["width", "height"]) {
    const value = input[side];
    if (value === undefined || !PIXEL_MODELS.has(model)) continue;
    if (!Number.isInteger(value) || (value as number) < 256 || (value as number) > 1440 || (value as number) % 32 !== 0) {
      return { field: side, msg: "Input should be a multiple of 32 between 256 and 1440", type: "value_error" };
    }
  }
  return null;
}

function tooManyActiveTasks(response: ServerResponse) {
  sendJson(
    response,
    429,
    { detail: "You have exceeded the number of active tasks (24). Please wait for some of them to finish." },
    { "Retry-After": "1" },
  );
}

function validationError(response: ServerResponse, loc: string[], msg: string, type: string) {
  sendJson(response, 422, { detail: [{ loc, msg, type }] });
}
