import { randomUUID } from "node:crypto";
import type { ServerResponse } from "node:http";
import { catalogModelIds } from "@/tests/fakes/catalog-models";
import {
  header,
  sampleOutput,
  sendJson,
  sleep,
  startFakeServer,
  type FakeScript,
  type FakeServer,
  type RecordedRequest,
} from "@/tests/fakes/fake-server";

// A local Runway for adapter and HTTP tests, written from its published API
// (https://docs.dev.runwayml.com/api/, the generated runwayml/sdk-node resources, the errors page
// https://docs.dev.runwayml.com/api-details/errors and task failures
// https://docs.dev.runwayml.com/errors/task-failures/): Bearer auth and a required
// X-Runway-Version, POST /v1/text_to_image | image_to_video | video_to_video answering `{id}`,
// GET /v1/tasks/{id} going PENDING → RUNNING (with `progress`) → SUCCEEDED | FAILED over
// `delayMs`, DELETE /v1/tasks/{id} cancelling a live task (CANCELLED) or deleting an ended one
// (404 after), `{error}` bodies (400 with `issues` for validation), 429 and 503 when shedding load.
// Runway sends no callbacks. GET /v1/organization answers `{creditBalance, tier: {maxMonthlyCreditSpend,
// models: {<model>: {maxConcurrentGenerations, maxDailyGenerations}}}, usage: {models}}` for the
// models in `models` (the catalog's, by default). Prompt markers steer a task from a test that cannot reach the fake:
// "[runway:throttled]" waits THROTTLED first, "[runway:slow]" runs 30 s, "[runway:moderated]" fails
// SAFETY.INPUT.TEXT, "[runway:internal]" fails INTERNAL.BAD_OUTPUT.CODE01, "[runway:garbled]"
// answers a task with a status Runway does not publish, "[runway:output-internal]" names an output
// on 0.0.0.0 and "[runway:output-oversized]" one declaring more bytes than any cap.

export const RUNWAY_FAKE_VERSION = "2024-11-06";

type Status = "PENDING" | "THROTTLED" | "RUNNING" | "SUCCEEDED" | "FAILED" | "CANCELLED";

type FakeTask = {
  id: string;
  endpoint: string;
  body: Record<string, unknown>;
  createdAt: number;
  finishAt: number;
  throttledUntil: number;
  outcome: { status: "SUCCEEDED"; output: string[] } | { status: "FAILED"; failure: string; failureCode: string };
  canceled: boolean;
  garbled: boolean;
};

export type RunwayFake = FakeServer & {
  apiSecret: string;
  script(script: FakeScript & { failureCode?: string }): void;
  /** Forgets recorded requests and clears the script. */
  reset(): void;
  task(id: string): FakeTask | undefined;
  /** The models GET /v1/organization lists in the key's tier. */
  models: Set<string>;
};

const DEFAULT_DELAY_MS = 150;
const SLOW_DELAY_MS = 30_000;
const videoSizes = ["1280:720", "720:1280", "1104:832", "832:1104", "960:960", "1584:672"];
const imageSizes = [
  "1024:1024",
  "1080:1080",
  "1168:880",
  "1360:768",
  "1440:1080",
  "1080:1440",
  "1808:768",
  "1920:1080",
  "1080:1920",
  "2112:912",
  "1280:720",
  "720:1280",
  "720:720",
  "960:720",
  "720:960",
  "1680:720",
];
type ModelSpec = { ratios: string[]; required: string[] };
const endpoints: Record<string, Record<string, ModelSpec>> = {
  "/v1/text_to_image": {
    gen4_image: { ratios: imageSizes, required: ["promptText", "ratio"] },
    // gen4_image_turbo needs at least one reference image.
    gen4_image_turbo: { ratios: imageSizes, required: ["promptText", "ratio", "referenceImages"] },
  },
  "/v1/image_to_video": {
    gen4_turbo: { ratios: videoSizes, required: ["promptImage", "ratio"] },
    gen3a_turbo: { ratios: ["1280:768", "768:1280"], required: ["promptImage", "ratio"] },
  },
  "/v1/video_to_video": { gen4_aleph: { ratios: [...videoSizes, "848:480", "640:480"], required: ["videoUri", "promptText", "ratio"] } },
};

export async function startRunwayFake(options: { apiSecret?: string } = {}): Promise<RunwayFake> {
  const apiSecret = options.apiSecret ?? `key_${"0f".repeat(64)}`;
  const tasks = new Map<string, FakeTask>();
  let current: FakeScript & { failureCode?: string } = {};
  const models = catalogModelIds("runway");

  const server = await startFakeServer(async (request, response) => {
    if (current.responseDelayMs) await sleep(current.responseDelayMs);
    if (header(request, "authorization") !== `Bearer ${apiSecret}` || current.fail === "unauthorized") {
      return sendJson(response, 401, { error: "Invalid API key." });
    }
    if (header(request, "x-runway-version") !== RUNWAY_FAKE_VERSION) {
      return sendJson(response, 400, { error: "The X-Runway-Version header is missing or names an unsupported version. Use 2024-11-06." });
    }
    if (current.fail === "rate_limit")
      return sendJson(response, 429, { error: "You have exceeded the rate limit for this API." }, { "Retry-After": "1" });
    if (current.fail === "server_error")
      return sendJson(response, 503, { error: "The service is temporarily unavailable. Please try again later." });

    if (request.method === "GET" && request.path === "/v1/organization") return sendJson(response, 200, organization());
    if (request.method === "POST" && endpoints[request.path]) return create(request, response);
    const match = /^\/v1\/tasks\/([^/]+)$/.exec(request.path);
    const task = match ? tasks.get(decodeURIComponent(match[1] ?? "")) : undefined;
    if (match && request.method === "GET") return task ? sendJson(response, 200, view(task)) : notFound(response);
    if (match && request.method === "DELETE") {
      if (!task) return notFound(response);
      if (isLive(task)) task.canceled = true;
      else tasks.delete(task.id);
      response.writeHead(204);
      response.end();
      return;
    }
    if (match || endpoints[request.path]) return sendJson(response, 405, { error: "Method not allowed." });
    return notFound(response);
  });

  async function create(request: RecordedRequest, response: ServerResponse) {
    const spec = endpoints[request.path]!;
    const body = request.body as Record<string, unknown> | null;
    const issues = body ? validate(body, spec) : [{ message: "Expected an object", path: [] }];
    if (issues.length > 0) return sendJson(response, 400, { error: "Validation of body failed", issues });
    const prompt = typeof body!.promptText === "string" ? body!.promptText : "";
    const now = Date.now();
    const delay = prompt.includes("[runway:slow]") ? SLOW_DELAY_MS : (current.delayMs ?? DEFAULT_DELAY_MS);
    const failure = failureFor(prompt);
    const task: FakeTask = {
      id: randomUUID(),
      endpoint: request.path,
      body: body!,
      createdAt: now,
      finishAt: now + delay,
      throttledUntil: prompt.includes("[runway:throttled]") ? now + delay / 2 : now,
      outcome: failure ?? { status: "SUCCEEDED", output: await renderOutput(request.path, prompt) },
      canceled: false,
      garbled: prompt.includes("[runway:garbled]"),
    };
    tasks.set(task.id, task);
    return sendJson(response, 200, { id: task.id });
  }

  function failureFor(prompt: string): FakeTask["outcome"] | null {
    if (prompt.includes("[runway:moderated]") || current.fail === "content_policy") {
      return {
        status: "FAILED",
        failure: "Your prompt did not pass our content moderation. Please revise it.",
        failureCode: "SAFETY.INPUT.TEXT",
      };
    }
    if (prompt.includes("[runway:internal]") || current.fail === "prediction_failed") {
      return {
        status: "FAILED",
        failure: current.errorText ?? "An unexpected error occurred while generating the output.",
        failureCode: current.failureCode ?? "INTERNAL.BAD_OUTPUT.CODE01",
      };
    }
    return null;
  }

  async function renderOutput(endpoint: string, prompt: string): Promise<string[]> {
    const id = randomUUID();
    if (prompt.includes("[runway:output-internal]")) {
      server.putFile("internal-secret.png", Buffer.from("internal secret: not for customers"), "image/png");
      return [`${server.baseUrl.replace("127.0.0.1", "0.0.0.0")}/files/internal-secret.png`];
    }
    if (prompt.includes("[runway:output-oversized]")) return [server.putEndlessFile(`${id}.png`, "image/png", 1024 * 1024 * 1024)];
    const sample = await sampleOutput(endpoint === "/v1/text_to_image" ? "png" : "mp4");
    // Runway's output URLs are signed and expire within 24-48 hours.
    return [`${server.putFile(`${id}.${sample.extension}`, sample.bytes, sample.contentType)}?_jwt=fake`];
  }

  function isLive(task: FakeTask) {
    return !task.canceled && Date.now() < task.finishAt;
  }

  function status(task: FakeTask): Status {
    if (task.canceled) return "CANCELLED";
    const now = Date.now();
    if (now >= task.finishAt) return task.outcome.status;
    if (now < task.throttledUntil) return "THROTTLED";
    return now < task.createdAt + (task.finishAt - task.createdAt) / 4 ? "PENDING" : "RUNNING";
  }

  function view(task: FakeTask) {
    const state = status(task);
    const base = { id: task.id, createdAt: new Date(task.createdAt).toISOString() };
    if (task.garbled) return { ...base, status: "COMPLETE", result: { url: "https://example.invalid/out.png" } };
    if (state === "RUNNING")
      return { ...base, status: state, progress: Math.min(0.99, (Date.now() - task.createdAt) / (task.finishAt - task.createdAt)) };
    if (state === "SUCCEEDED" && task.outcome.status === "SUCCEEDED") return { ...base, status: state, output: task.outcome.output };
    if (state === "FAILED" && task.outcome.status === "FAILED")
      return { ...base, status: state, failure: task.outcome.failure, failureCode: task.outcome.failureCode };
    return { ...base, status: state };
  }

  function organization() {
    const tier = Object.fromEntries([...models].map((model) => [model, { maxConcurrentGenerations: 2, maxDailyGenerations: 200 }]));
    const usage = Object.fromEntries([...models].map((model) => [model, { dailyGenerations: 0 }]));
    return { creditBalance: 5000, tier: { maxMonthlyCreditSpend: 10_000, models: tier }, usage: { models: usage } };
  }

  return {
    ...server,
    apiSecret,
    script(script) {
      current = { ...script };
    },
    reset() {
      current = {};
      server.requests.length = 0;
    },
    task: (id) => tasks.get(id),
    models,
  };
}

function validate(body: Record<string, unknown>, models: Record<string, ModelSpec>) {
  const issues: Array<{ message: string; path: string[] }> = [];
  const spec = typeof body.model === "string" ? models[body.model] : undefined;
  if (!spec) return [{ message: `Invalid enum value. Expected ${Object.keys(models).join(" | ")}`, path: ["model"] }];
  for (const field of spec.required) {
    const value = body[field];
    const present = field === "referenceImages" ? Array.isArray(value) && value.length > 0 : typeof value === "string" && value !== "";
    if (!present) issues.push({ message: "Required", path: [field] });
  }
  if (Array.isArray(body.referenceImages) && body.referenceImages.length > 3)
    issues.push({ message: "Array must contain at most 3 element(s)", path: ["referenceImages"] });
  if (typeof body.ratio === "string" && !spec.ratios.includes(body.ratio))
    issues.push({ message: `Invalid enum value '${body.ratio}'`, path: ["ratio"] });
  if (typeof body.promptText === "string" && body.promptText.length > 1000)
    issues.push({ message: "String must contain at most 1000 character(s)", path: ["promptText"] });
  if (body.duration !== undefined && body.duration !== 5 && body.duration !== 10)
    issues.push({ message: "Invalid literal value, expected 5 or 10", path: ["duration"] });
  if (body.seed !== undefined && (!Number.isInteger(body.seed) || (body.seed as number) < 0 || (body.seed as number) > 4_294_967_295))
    issues.push({ message: "Invalid seed", path: ["seed"] });
  return issues;
}

function notFound(response: ServerResponse) {
  sendJson(response, 404, { error: "Not found." });
}
