import { createHash, generateKeyPairSync, randomUUID, sign } from "node:crypto";
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

// A local fal queue (https://docs.fal.ai/model-apis/model-endpoints/queue) for adapter tests:
// submit to `/{endpoint}?fal_webhook=`, `IN_QUEUE → IN_PROGRESS → COMPLETED` over `delayMs`,
// status and result under `/{owner}/{app}/requests/{id}`, cancel by PUT, `Key` auth, fal's error
// bodies, and a completion webhook signed with ED25519 by this fake's own key, whose public half
// it serves as a JWKS at /.well-known/jwks.json. The Platform API's model search (GET /v1/models,
// https://fal.ai/docs/api-reference/platform-apis/openapi/v1.json) answers `{models: [{endpoint_id,
// metadata}], next_cursor, has_more}` for the endpoints in `models` (the catalog's, by default),
// 404 `{error: {type: "not_found", message}}` for an endpoint_id it does not know, and 401
// `{error: {type: "authorization_error", …}}` for a key it refuses.

type FakeRequest = {
  id: string;
  endpoint: string;
  appId: string;
  input: Record<string, unknown>;
  webhook: string | null;
  createdAt: number;
  finishAt: number;
  outcome: "succeeded" | "failed";
  errorText: string | null;
  canceled: boolean;
  payload: Record<string, unknown> | null;
};

export type FalFake = FakeServer & {
  key: string;
  userId: string;
  jwksUrl: string;
  /** Signs like fal does, for tests that forge or re-sign deliveries. */
  signWebhook(requestId: string, timestamp: string, body: string): string;
  script(script: FakeScript): void;
  reset(): void;
  request(id: string): FakeRequest | undefined;
  /** The endpoint ids the Platform API's model search knows. */
  models: Set<string>;
};

const DEFAULT_DELAY_MS = 150;

export async function startFalFake(options: { key?: string; userId?: string } = {}): Promise<FalFake> {
  const key = options.key ?? "fal-key-id:fal-key-secret";
  const userId = options.userId ?? "github|darkroom-tests";
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  const jwk = { ...(publicKey.export({ format: "jwk" }) as Record<string, unknown>), kid: "fake-fal-1", use: "sig", alg: "EdDSA" };
  const requests = new Map<string, FakeRequest>();
  let current: FakeScript = {};
  const models = catalogModelIds("fal");

  const server = await startFakeServer(async (request, response) => {
    if (request.method === "GET" && request.path === "/.well-known/jwks.json") return sendJson(response, 200, { keys: [jwk] });
    if (request.method === "GET" && request.path === "/v1/models") return modelSearch(request, response);
    if (current.responseDelayMs) await sleep(current.responseDelayMs);
    if (header(request, "authorization") !== `Key ${key}` || current.fail === "unauthorized") {
      return sendJson(response, 401, { detail: "Invalid key authorization" });
    }
    if (current.fail === "rate_limit")
      return sendJson(response, 429, { detail: "Too many requests: concurrency limit reached" }, { "Retry-After": "1" });
    if (current.fail === "server_error") {
      return sendJson(
        response,
        500,
        { detail: "Internal server error", error_type: "internal_error" },
        { "X-Fal-Error-Type": "internal_error" },
      );
    }

    const segments = request.path.split("/").filter(Boolean);
    if (segments[2] === "requests" && segments.length >= 4) {
      const queued = requests.get(segments[3] ?? "");
      if (!queued || queued.appId !== `${segments[0]}/${segments[1]}`) return sendJson(response, 404, { detail: "Request not found" });
      const action = segments[4];
      if (request.method === "GET" && action === "status" && segments.length === 5)
        return sendJson(response, isCompleted(queued) ? 200 : 202, statusView(queued));
      if (request.method === "GET" && segments.length === 4) return result(response, queued);
      if (request.method === "PUT" && action === "cancel" && segments.length === 5) return cancel(response, queued);
      return sendJson(response, 405, { detail: "Method not allowed" });
    }
    if (request.method === "POST" && segments.length >= 2) return submit(request, response, segments.join("/"));
    return sendJson(response, 404, { detail: "Not found" });
  });

  async function submit(request: RecordedRequest, response: ServerResponse, endpoint: string) {
    const input = request.body;
    if (typeof input !== "object" || input === null || Array.isArray(input)) {
      return sendJson(response, 422, { detail: [{ loc: ["body"], msg: "Input should be a valid dictionary", type: "dict_type" }] });
    }
    if (current.fail === "content_policy") return contentPolicy(response, "The prompt was flagged by the content checker.");
    const delay = current.delayMs ?? DEFAULT_DELAY_MS;
    const now = Date.now();
    const queued: FakeRequest = {
      id: randomUUID(),
      endpoint,
      appId: endpoint.split("/").slice(0, 2).join("/"),
      input: input as Record<string, unknown>,
      webhook: request.query.get("fal_webhook"),
      createdAt: now,
      finishAt: now + delay,
      outcome: current.fail === "prediction_failed" ? "failed" : "succeeded",
      errorText: current.errorText ?? null,
      canceled: false,
      payload: null,
    };
    if (queued.outcome === "succeeded") queued.payload = await renderPayload(queued);
    requests.set(queued.id, queued);
    server.later(delay, () => void complete(queued));
    return sendJson(response, 200, { request_id: queued.id, gateway_request_id: queued.id, ...urls(queued), queue_position: 0 });
  }

  async function renderPayload(queued: FakeRequest): Promise<Record<string, unknown>> {
    const inference = { inference: (queued.finishAt - queued.createdAt) / 1000 };
    if (/veo|video|ray-2/i.test(queued.endpoint)) {
      const sample = await sampleOutput("mp4");
      const url = server.putFile(`${queued.id}/output.mp4`, sample.bytes, sample.contentType);
      return {
        video: { url, content_type: sample.contentType, file_name: "output.mp4", file_size: sample.bytes.length },
        timings: inference,
      };
    }
    const sample = await sampleOutput(String(queued.input.output_format ?? "jpeg"));
    const count = typeof queued.input.num_images === "number" ? queued.input.num_images : 1;
    const images = Array.from({ length: count }, (_, index) => {
      const fileName = `${index}.${sample.extension}`;
      const url = server.putFile(`${queued.id}/${fileName}`, sample.bytes, sample.contentType);
      return { url, content_type: sample.contentType, file_name: fileName, file_size: sample.bytes.length, width: 8, height: 8 };
    });
    return {
      images,
      seed: queued.input.seed ?? 42,
      has_nsfw_concepts: images.map(() => false),
      prompt: queued.input.prompt,
      timings: inference,
    };
  }

  function isCompleted(queued: FakeRequest) {
    return queued.canceled || Date.now() >= queued.finishAt;
  }

  function statusView(queued: FakeRequest) {
    const now = Date.now();
    if (isCompleted(queued)) {
      const failure = failureOf(queued);
      return {
        status: "COMPLETED",
        request_id: queued.id,
        ...urls(queued),
        logs: null,
        metrics: { inference_time: (queued.finishAt - queued.createdAt) / 1000 },
        ...(failure ? { error: failure.message, error_type: failure.errorType } : {}),
      };
    }
    const inQueue = now < queued.createdAt + (queued.finishAt - queued.createdAt) / 3;
    return {
      status: inQueue ? "IN_QUEUE" : "IN_PROGRESS",
      request_id: queued.id,
      ...urls(queued),
      ...(inQueue ? { queue_position: 0 } : { logs: null }),
    };
  }

  /** How a failed or canceled request answers on its result URL. */
  function failureOf(queued: FakeRequest): { status: number; body: Record<string, unknown>; errorType: string; message: string } | null {
    if (queued.canceled) {
      const message = "Request was cancelled by the client";
      return { status: 499, body: { detail: message, error_type: "client_cancelled" }, errorType: "client_cancelled", message };
    }
    if (queued.outcome === "succeeded") return null;
    const text = queued.errorText ?? "Runner crashed while processing the request";
    if (/nsfw|content|safety/i.test(text)) {
      const detail = [
        { loc: ["body"], msg: text, type: "content_policy_violation", url: "https://docs.fal.ai/errors#content_policy_violation" },
      ];
      return { status: 422, body: { detail }, errorType: "content_policy_violation", message: text };
    }
    return { status: 500, body: { detail: text, error_type: "runner_server_error" }, errorType: "runner_server_error", message: text };
  }

  function result(response: ServerResponse, queued: FakeRequest) {
    if (!isCompleted(queued)) return sendJson(response, 400, { detail: "Request is still in progress" });
    const failure = failureOf(queued);
    if (failure) return sendJson(response, failure.status, failure.body, { "X-Fal-Error-Type": failure.errorType });
    return sendJson(response, 200, queued.payload);
  }

  function cancel(response: ServerResponse, queued: FakeRequest) {
    if (isCompleted(queued)) return sendJson(response, 400, { status: "ALREADY_COMPLETED" });
    queued.canceled = true;
    return sendJson(response, 202, { status: "CANCELLATION_REQUESTED" });
  }

  async function complete(queued: FakeRequest) {
    // Timers may fire a millisecond before the wall clock says so: the end is now, whatever it says.
    queued.finishAt = Math.min(queued.finishAt, Date.now());
    if (queued.canceled || !queued.webhook) return;
    const failure = failureOf(queued);
    const body = JSON.stringify(
      failure
        ? {
            request_id: queued.id,
            gateway_request_id: queued.id,
            status: "ERROR",
            error: `Invalid status code: ${failure.status}`,
            payload: failure.body,
          }
        : { request_id: queued.id, gateway_request_id: queued.id, status: "OK", payload: queued.payload },
    );
    const timestamp = String(Math.floor(Date.now() / 1000));
    await server.deliverWebhook(
      queued.webhook,
      {
        "X-Fal-Webhook-Request-Id": queued.id,
        "X-Fal-Webhook-User-Id": userId,
        "X-Fal-Webhook-Timestamp": timestamp,
        "X-Fal-Webhook-Signature": signWebhook(queued.id, timestamp, body),
      },
      body,
    );
  }

  function signWebhook(requestId: string, timestamp: string, body: string): string {
    const digest = createHash("sha256").update(body, "utf8").digest("hex");
    return sign(null, Buffer.from([requestId, userId, timestamp, digest].join("\n"), "utf8"), privateKey).toString("hex");
  }

  function modelSearch(request: RecordedRequest, response: ServerResponse) {
    const given = header(request, "authorization");
    if (given !== undefined && given !== `Key ${key}`)
      return sendJson(response, 401, { error: { type: "authorization_error", message: "Invalid API key" } });
    const wanted = request.query.getAll("endpoint_id");
    const unknown = wanted.find((id) => !models.has(id));
    if (unknown) return sendJson(response, 404, { error: { type: "not_found", message: `Model endpoint '${unknown}' not found` } });
    const limit = Number(request.query.get("limit") ?? 50);
    const found = (wanted.length > 0 ? wanted : [...models].slice(0, limit)).map((endpointId) => ({
      endpoint_id: endpointId,
      metadata: {
        display_name: endpointId,
        category: "text-to-image",
        description: `${endpointId} on the fake`,
        status: "active",
        tags: [],
        updated_at: "2025-01-15T12:00:00Z",
        is_favorited: null,
        thumbnail_url: "https://fal.media/files/example.jpg",
        model_url: `https://fal.run/${endpointId}`,
        date: "2024-08-01T00:00:00Z",
        highlighted: false,
        pinned: false,
      },
    }));
    return sendJson(response, 200, { models: found, next_cursor: null, has_more: false });
  }

  function urls(queued: FakeRequest) {
    const base = `${server.baseUrl}/${queued.appId}/requests/${queued.id}`;
    return { response_url: base, status_url: `${base}/status`, cancel_url: `${base}/cancel` };
  }

  return {
    ...server,
    key,
    userId,
    jwksUrl: `${server.baseUrl}/.well-known/jwks.json`,
    signWebhook,
    script(script) {
      current = { ...script };
    },
    reset() {
      current = {};
      server.requests.length = 0;
      server.webhooks.length = 0;
    },
    request: (id) => requests.get(id),
    models,
  };
}

function contentPolicy(response: ServerResponse, message: string) {
  sendJson(
    response,
    422,
    {
      detail: [
        {
          loc: ["body", "prompt"],
          msg: message,
          type: "content_policy_violation",
          url: "https://docs.fal.ai/errors#content_policy_violation",
        },
      ],
    },
    { "X-Fal-Retryable": "false" },
  );
}
