import { createHmac, randomBytes } from "node:crypto";
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

// A local Replicate (https://replicate.com/docs/reference/http) for adapter tests: predictions on
// official-model and version endpoints, `starting → processing → succeeded|failed` over `delayMs`,
// GET, cancel, `Prefer: wait`, Bearer auth, Replicate's problem-details errors, and a completion
// webhook signed per Standard Webhooks with this fake's own `whsec_` secret. A prompt holding
// "[replicate:callback-first]" ends its prediction at once and delivers the completion webhook
// before the create is answered: the callback a network can deliver before the caller even knows
// the prediction's id. Output markers play a provider whose answer names what it should not:
// "[replicate:output-internal]" an output URL on 0.0.0.0 (which reaches this machine's loopback)
// serving an internal file, "[replicate:output-redirect-internal]" an output URL that redirects
// there, "[replicate:output-oversized]" an output declaring more bytes than any cap. Read-only:
// GET /v1/account, and GET /v1/models/{owner}/{name} (…/versions/{id}) for the models in
// `models` (the catalog's, by default), 404 for any other.

type Status = "starting" | "processing" | "succeeded" | "failed" | "canceled";

type FakePrediction = {
  id: string;
  model: string;
  version: string | null;
  input: Record<string, unknown>;
  webhook: string | null;
  webhookEventsFilter: string[] | null;
  createdAt: number;
  finishAt: number;
  outcome: "succeeded" | "failed";
  errorText: string;
  canceled: boolean;
  output: string | string[] | null;
  waiters: Array<() => void>;
};

export type ReplicateFake = FakeServer & {
  token: string;
  webhookSecret: string;
  script(script: FakeScript): void;
  /** Forgets recorded requests and webhooks and clears the script. */
  reset(): void;
  prediction(id: string): FakePrediction | undefined;
  /** `owner/name` of the models GET /v1/models/{owner}/{name} knows. */
  models: Set<string>;
};

const DEFAULT_DELAY_MS = 150;

export async function startReplicateFake(options: { token?: string; webhookSecret?: string } = {}): Promise<ReplicateFake> {
  const token = options.token ?? "r8_test_token";
  const webhookSecret = options.webhookSecret ?? `whsec_${randomBytes(24).toString("base64")}`;
  const predictions = new Map<string, FakePrediction>();
  let current: FakeScript = {};
  const models = new Set([...catalogModelIds("replicate")].map((id) => id.split(":")[0] ?? id));

  const server = await startFakeServer(async (request, response) => {
    if (current.responseDelayMs) await sleep(current.responseDelayMs);
    if (header(request, "authorization") !== `Bearer ${token}` || current.fail === "unauthorized") {
      return problem(response, 401, "Unauthenticated", "You did not pass a valid authentication token");
    }
    if (request.method === "GET" && request.path === "/v1/account") {
      return sendJson(response, 200, {
        type: "organization",
        username: "darkroom-tests",
        name: "Darkroom Tests",
        github_url: null,
        avatar_url: null,
      });
    }
    if (current.fail === "rate_limit") {
      return sendJson(
        response,
        429,
        { title: "Request was throttled", detail: "Request was throttled. Expected available in 1 second.", status: 429, retry_after: 1 },
        { "Retry-After": "1" },
      );
    }
    if (current.fail === "server_error") return problem(response, 500, "Internal Server Error", "Something went wrong on our end.");

    const segments = request.path.split("/").filter(Boolean);
    if (
      request.method === "POST" &&
      segments.length === 5 &&
      segments[0] === "v1" &&
      segments[1] === "models" &&
      segments[4] === "predictions"
    ) {
      return create(request, response, `${segments[2]}/${segments[3]}`, null);
    }
    if (request.method === "POST" && request.path === "/v1/predictions") {
      const version = (request.body as { version?: unknown } | null)?.version;
      if (typeof version !== "string") return problem(response, 422, "Input validation failed", "version is required");
      return create(request, response, version.split(":")[0] ?? version, version);
    }
    if (request.method === "GET" && segments.length === 3 && segments[1] === "predictions") {
      const prediction = predictions.get(segments[2] ?? "");
      return prediction
        ? sendJson(response, 200, view(prediction))
        : problem(response, 404, "Not found", "The requested resource could not be found.");
    }
    if (request.method === "POST" && segments.length === 4 && segments[1] === "predictions" && segments[3] === "cancel") {
      const prediction = predictions.get(segments[2] ?? "");
      if (!prediction) return problem(response, 404, "Not found", "The requested resource could not be found.");
      if (!isDone(prediction)) {
        prediction.canceled = true;
        void finish(prediction);
      }
      return sendJson(response, 200, view(prediction));
    }
    if (request.method === "GET" && request.path === "/v1/webhooks/default/secret") return sendJson(response, 200, { key: webhookSecret });
    if (
      request.method === "GET" &&
      segments[1] === "models" &&
      (segments.length === 4 || (segments.length === 6 && segments[4] === "versions"))
    ) {
      const [owner = "", name = "", , version] = segments.slice(2).map(decodeURIComponent);
      if (!models.has(`${owner}/${name}`)) return problem(response, 404, "Not found", "The requested resource could not be found.");
      return sendJson(response, 200, version ? versionView(version) : modelView(owner, name));
    }
    return problem(response, 404, "Not found", "The requested resource could not be found.");
  });

  async function create(request: RecordedRequest, response: ServerResponse, model: string, version: string | null) {
    const body = request.body as { input?: unknown; webhook?: unknown; webhook_events_filter?: unknown } | null;
    if (!body || typeof body.input !== "object" || body.input === null || Array.isArray(body.input)) {
      return problem(response, 422, "Input validation failed", "input is required and must be an object");
    }
    if (current.fail === "content_policy") {
      return problem(response, 422, "Input validation failed", "The prompt was flagged by the content policy as sensitive (E005).");
    }
    const input = body.input as Record<string, unknown>;
    const now = Date.now();
    const callbackFirst = typeof input.prompt === "string" && input.prompt.includes("[replicate:callback-first]");
    const delay = current.delayMs ?? DEFAULT_DELAY_MS;
    const prediction: FakePrediction = {
      id: randomBytes(13).toString("hex").slice(0, 26),
      model,
      version,
      input,
      webhook: typeof body.webhook === "string" ? body.webhook : null,
      webhookEventsFilter: Array.isArray(body.webhook_events_filter) ? body.webhook_events_filter.map(String) : null,
      createdAt: now,
      finishAt: now + delay,
      outcome: current.fail === "prediction_failed" ? "failed" : "succeeded",
      errorText: current.errorText ?? "Prediction failed: CUDA error: out of memory",
      canceled: false,
      output: null,
      waiters: [],
    };
    prediction.output = prediction.outcome === "succeeded" ? await renderOutput(prediction) : null;
    predictions.set(prediction.id, prediction);
    if (callbackFirst) {
      // The answer as it left, overtaken by the webhook of the prediction's end.
      const answer = view(prediction);
      await finish(prediction);
      return sendJson(response, 201, answer);
    }
    server.later(delay, () => void finish(prediction));

    const wait = /\bwait(?:=(\d+))?/.exec(header(request, "prefer") ?? "");
    if (wait) {
      const seconds = Math.min(Number(wait[1] ?? 60), 60);
      await Promise.race([new Promise<void>((resolve) => prediction.waiters.push(resolve)), sleep(seconds * 1000)]);
    }
    return sendJson(response, 201, view(prediction));
  }

  /** The file an internal service would hold, at an address that reaches loopback without naming it. */
  function internalSecretUrl() {
    server.putFile("internal-secret.png", Buffer.from("internal secret: not for customers"), "image/png");
    return `${server.baseUrl.replace("127.0.0.1", "0.0.0.0")}/files/internal-secret.png`;
  }

  async function renderOutput(prediction: FakePrediction): Promise<string | string[]> {
    const prompt = typeof prediction.input.prompt === "string" ? prediction.input.prompt : "";
    const steered = prompt.includes("[replicate:output-internal]")
      ? internalSecretUrl()
      : prompt.includes("[replicate:output-redirect-internal]")
        ? server.putRedirect(`${prediction.id}/out-0.png`, internalSecretUrl())
        : prompt.includes("[replicate:output-oversized]")
          ? server.putEndlessFile(`${prediction.id}/out-0.png`, "image/png", 1024 * 1024 * 1024)
          : null;
    if (steered) return "num_outputs" in prediction.input ? [steered] : steered;
    const video = /veo|kling|video|gen4-turbo|hailuo|luma\/ray-/i.test(prediction.model);
    // Runway's image model takes no output_format and answers a PNG; FLUX defaults to WebP.
    const format = video ? "mp4" : String(prediction.input.output_format ?? (prediction.model.startsWith("runwayml/") ? "png" : "webp"));
    const sample = await sampleOutput(format);
    const count = typeof prediction.input.num_outputs === "number" ? prediction.input.num_outputs : 1;
    const urls = Array.from({ length: count }, (_, index) =>
      server.putFile(`${prediction.id}/out-${index}.${sample.extension}`, sample.bytes, sample.contentType),
    );
    // Models with num_outputs answer a list; the others one URL.
    return "num_outputs" in prediction.input ? urls : (urls[0] ?? "");
  }

  function isDone(prediction: FakePrediction) {
    return prediction.canceled || Date.now() >= prediction.finishAt;
  }

  function status(prediction: FakePrediction): Status {
    if (prediction.canceled) return "canceled";
    const now = Date.now();
    if (now >= prediction.finishAt) return prediction.outcome;
    return now >= prediction.createdAt + (prediction.finishAt - prediction.createdAt) / 2 ? "processing" : "starting";
  }

  const finished = new WeakSet<FakePrediction>();
  /** Resolves once its completion webhook (if it has one) is delivered. */
  async function finish(prediction: FakePrediction) {
    if (finished.has(prediction)) return;
    finished.add(prediction);
    // Timers may fire a millisecond before the wall clock says so: the end is now, whatever it says.
    prediction.finishAt = Math.min(prediction.finishAt, Date.now());
    for (const resolve of prediction.waiters.splice(0)) resolve();
    const filter = prediction.webhookEventsFilter;
    if (prediction.webhook && (!filter || filter.includes("completed"))) await sendWebhook(prediction.webhook, view(prediction));
  }

  async function sendWebhook(url: string, prediction: object) {
    const id = `msg_${randomBytes(12).toString("hex")}`;
    const timestamp = String(Math.floor(Date.now() / 1000));
    const body = JSON.stringify(prediction);
    const key = Buffer.from(webhookSecret.slice("whsec_".length), "base64");
    const signature = createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64");
    await server.deliverWebhook(url, { "webhook-id": id, "webhook-timestamp": timestamp, "webhook-signature": `v1,${signature}` }, body);
  }

  function view(prediction: FakePrediction) {
    const state = status(prediction);
    const done = state === "succeeded" || state === "failed" || state === "canceled";
    const startedAt = state === "starting" ? null : new Date(prediction.createdAt + 10).toISOString();
    return {
      id: prediction.id,
      model: prediction.model,
      version: prediction.version ?? "hidden",
      input: prediction.input,
      logs: "",
      output: state === "succeeded" ? prediction.output : null,
      data_removed: false,
      error: state === "failed" ? prediction.errorText : null,
      status: state,
      created_at: new Date(prediction.createdAt).toISOString(),
      started_at: startedAt,
      completed_at: done ? new Date(Math.min(Date.now(), prediction.finishAt)).toISOString() : null,
      urls: {
        get: `${server.baseUrl}/v1/predictions/${prediction.id}`,
        cancel: `${server.baseUrl}/v1/predictions/${prediction.id}/cancel`,
        web: `https://replicate.com/p/${prediction.id}`,
      },
      metrics: state === "succeeded" ? { predict_time: (prediction.finishAt - prediction.createdAt) / 1000 } : {},
      ...(prediction.webhook
        ? { webhook: prediction.webhook, webhook_events_filter: prediction.webhookEventsFilter ?? ["start", "output", "logs", "completed"] }
        : {}),
    };
  }

  return {
    ...server,
    token,
    webhookSecret,
    script(script) {
      current = { ...script };
    },
    reset() {
      current = {};
      server.requests.length = 0;
      server.webhooks.length = 0;
    },
    prediction: (id) => predictions.get(id),
    models,
  };
}

/** A model as GET /v1/models/{owner}/{name} answers it. */
function modelView(owner: string, name: string) {
  return {
    url: `https://replicate.com/${owner}/${name}`,
    owner,
    name,
    description: `${owner}/${name} on the fake`,
    visibility: "public",
    github_url: null,
    paper_url: null,
    license_url: null,
    run_count: 1000,
    cover_image_url: null,
    default_example: null,
    latest_version: null,
  };
}

function versionView(id: string) {
  return { id, created_at: "2025-01-01T00:00:00.000Z", cog_version: "0.14.0", openapi_schema: {} };
}

function problem(response: ServerResponse, status: number, title: string, detail: string) {
  sendJson(response, status, { title, detail, status });
}
