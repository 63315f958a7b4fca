import "server-only";
import { listModels } from "../../catalog";
import {
  CallbackRejectedError,
  DEFAULT_PROVIDER_TIMEOUT_MS,
  providerErrorFromResponse,
  sendProviderRequest,
  type ProviderResponse,
} from "../http-errors";
import type { ProviderRequest } from "../provider-http";
import {
  ProviderError,
  type CallbackRequest,
  type ProviderAdapter,
  type ProviderJob,
  type ProviderResult,
  type SubmitResult,
} from "../types";
import { buildFalInput, falAppId, falEndpointId } from "./build-fal-input";
import { checkFal } from "./check-fal";
import { falFailure, falStatusSchema, falSubmitSchema, falSuccess, falWebhookFailure, falWebhookSchema } from "./fal-result";
import { createFalWebhookVerifier } from "./verify-fal-webhook";

// fal's queue API (https://docs.fal.ai/model-apis/model-endpoints/queue): submit with a
// `fal_webhook`, then read `requests/{id}/status` and `requests/{id}`, cancel with PUT.

export type FalAdapterOptions = {
  token: string;
  /** https://queue.fal.run, or a local fake. */
  baseUrl: string;
  /** fal's webhook signing keys (https://rest.alpha.fal.ai/.well-known/jwks.json). */
  jwksUrl: string;
  /** fal's Platform API (https://api.fal.ai), where check() searches the models; default the public one. */
  apiBaseUrl?: string;
  timeoutMs?: number;
};

// Status codes that speak about our call, not about the request's outcome.
const callFailures = new Set([401, 403, 429]);
const MAX_REMEMBERED_APPS = 10_000;

export function createFalAdapter(options: FalAdapterOptions): ProviderAdapter {
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const timeoutMs = options.timeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS;
  const verifyWebhook = createFalWebhookVerifier({ jwksUrl: options.jwksUrl, timeoutMs });
  // cancel() gets only the request id, but fal addresses it under its app: remember the app of
  // requests this process saw, and otherwise try the apps of the catalog's fal models.
  const appOfRequest = new Map<string, string>();

  function remember(requestId: string, appId: string) {
    if (appOfRequest.size >= MAX_REMEMBERED_APPS) appOfRequest.delete(appOfRequest.keys().next().value as string);
    appOfRequest.set(requestId, appId);
  }

  async function call(method: string, path: string, body?: unknown): Promise<ProviderResponse> {
    const headers: Record<string, string> = { Authorization: `Key ${options.token}`, Accept: "application/json" };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const init: ProviderRequest = { method, headers, body: body === undefined ? undefined : JSON.stringify(body) };
    return sendProviderRequest("fal", `${baseUrl}${path}`, init, timeoutMs);
  }

  async function cancelIn(appId: string, requestId: string): Promise<"requested" | "too_late" | "not_found"> {
    const response = await call("PUT", `/${appId}/requests/${encodeURIComponent(requestId)}/cancel`);
    if (response.status === 404) return "not_found";
    return response.ok ? "requested" : "too_late";
  }

  return {
    id: "fal",

    async submit(job: ProviderJob): Promise<SubmitResult> {
      const endpointId = falEndpointId(job);
      const query = `?fal_webhook=${encodeURIComponent(job.callbackUrl)}`;
      const response = await call("POST", `/${endpointId}${query}`, buildFalInput(job));
      if (!response.ok) throw providerErrorFromResponse("fal", response);
      const parsed = falSubmitSchema.safeParse(response.body);
      if (!parsed.success)
        throw new ProviderError(
          "fal",
          "ERR4002",
          "fal: the queue answered without a request_id",
          `HTTP ${response.status} unexpected body`,
        );
      remember(parsed.data.request_id, falAppId(endpointId));
      return { kind: "accepted", predictionId: parsed.data.request_id };
    },

    async poll(predictionId: string, job: ProviderJob): Promise<ProviderResult> {
      const appId = falAppId(falEndpointId(job));
      remember(predictionId, appId);
      const requestPath = `/${appId}/requests/${encodeURIComponent(predictionId)}`;

      const statusResponse = await call("GET", `${requestPath}/status`);
      if (!statusResponse.ok) throw providerErrorFromResponse("fal", statusResponse);
      const status = falStatusSchema.safeParse(statusResponse.body);
      if (!status.success)
        throw new ProviderError(
          "fal",
          "ERR4002",
          "fal: the status answer is not a queue status",
          `HTTP ${statusResponse.status} unexpected body`,
        );
      if (status.data.status !== "COMPLETED") return { status: "running" };

      const result = await call("GET", requestPath);
      if (result.ok) return falSuccess(result.body, status.data.metrics?.inference_time ?? null);
      if (callFailures.has(result.status)) throw providerErrorFromResponse("fal", result);
      return falFailure(result);
    },

    async cancel(predictionId: string): Promise<boolean> {
      const known = appOfRequest.get(predictionId);
      const candidates = known ? [known] : catalogAppIds();
      for (const appId of candidates) {
        try {
          const outcome = await cancelIn(appId, predictionId);
          if (outcome !== "not_found") return outcome === "requested";
        } catch {
          return false;
        }
      }
      return false;
    },

    async parseCallback(request: CallbackRequest) {
      await verifyWebhook(request);
      const parsed = falWebhookSchema.safeParse(parseJson(request.rawBody));
      if (!parsed.success) throw new CallbackRejectedError("fal", "fal webhook body is not a queue result");
      const webhook = parsed.data;
      if (webhook.status === "ERROR")
        return { predictionId: webhook.request_id, result: falWebhookFailure(webhook.error, webhook.payload) };
      // fal drops a payload it cannot serialize (payload_error); the result endpoint still has it.
      if (webhook.payload === null || webhook.payload === undefined)
        return { predictionId: webhook.request_id, result: { status: "running" } };
      return { predictionId: webhook.request_id, result: falSuccess(webhook.payload, null) };
    },

    check: (providerModelIds) =>
      checkFal((path) => {
        const headers = { Authorization: `Key ${options.token}`, Accept: "application/json" };
        return sendProviderRequest(
          "fal",
          `${(options.apiBaseUrl ?? "https://api.fal.ai").replace(/\/+$/, "")}${path}`,
          { method: "GET", headers },
          timeoutMs,
        );
      }, providerModelIds),
  };
}

function catalogAppIds(): string[] {
  const endpoints = listModels().flatMap((model) => (model.providerModelIds.fal ? [model.providerModelIds.fal] : []));
  return [...new Set(endpoints.map(falAppId))];
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
