import "server-only";
import {
  CallbackRejectedError,
  DEFAULT_PROVIDER_TIMEOUT_MS,
  providerErrorFromResponse,
  sendProviderRequest,
  type ProviderResponse,
} from "../http-errors";
import type { ProviderRequest } from "../provider-http";
import { ProviderError, type CallbackRequest, type ProviderAdapter, type ProviderJob, type SubmitResult } from "../types";
import { buildReplicateInput, modelName } from "./build-replicate-input";
import { checkReplicate } from "./check-replicate";
import { isTerminal, predictionResult, replicatePredictionSchema, type ReplicatePrediction } from "./replicate-prediction";
import { verifyReplicateWebhook } from "./verify-replicate-webhook";

// Replicate's HTTP API (https://replicate.com/docs/reference/http): a prediction is created on the
// official-model endpoint with a webhook for its completion, read back by GET, stopped by cancel.

export type ReplicateAdapterOptions = {
  token: string;
  /** https://api.replicate.com, or a local fake. */
  baseUrl: string;
  /** `whsec_...`. Without it no webhook is requested and there is no parseCallback: poll instead. */
  webhookSecret?: string | null;
  timeoutMs?: number;
};

export function createReplicateAdapter(options: ReplicateAdapterOptions): ProviderAdapter {
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const timeoutMs = options.timeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS;
  const webhookSecret = options.webhookSecret ?? null;

  async function call(method: string, path: string, body?: unknown): Promise<ProviderResponse> {
    const headers: Record<string, string> = { Authorization: `Bearer ${options.token}` };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const init: ProviderRequest = { method, headers, body: body === undefined ? undefined : JSON.stringify(body) };
    return sendProviderRequest("replicate", `${baseUrl}${path}`, init, timeoutMs);
  }

  async function callForPrediction(method: string, path: string, body?: unknown): Promise<ReplicatePrediction> {
    const response = await call(method, path, body);
    if (!response.ok) throw providerErrorFromResponse("replicate", response);
    return readPrediction(response);
  }

  const adapter: ProviderAdapter = {
    id: "replicate",

    async submit(job: ProviderJob): Promise<SubmitResult> {
      const body: Record<string, unknown> = { input: buildReplicateInput(job) };
      if (webhookSecret) {
        body.webhook = job.callbackUrl;
        body.webhook_events_filter = ["completed"];
      }
      const prediction = await callForPrediction("POST", createPath(job.providerModelId, body), body);
      if (isTerminal(prediction)) return { kind: "completed", predictionId: prediction.id, result: predictionResult(prediction) };
      return { kind: "accepted", predictionId: prediction.id };
    },

    async poll(predictionId: string) {
      return predictionResult(await callForPrediction("GET", `/v1/predictions/${encodeURIComponent(predictionId)}`));
    },

    async cancel(predictionId: string): Promise<boolean> {
      try {
        const prediction = await callForPrediction("POST", `/v1/predictions/${encodeURIComponent(predictionId)}/cancel`);
        return prediction.status === "canceled" || !isTerminal(prediction);
      } catch {
        return false;
      }
    },

    check: (providerModelIds) => checkReplicate((path) => call("GET", path), providerModelIds),
  };

  if (webhookSecret) {
    adapter.parseCallback = async (request: CallbackRequest) => {
      verifyReplicateWebhook(request, webhookSecret);
      const parsed = replicatePredictionSchema.safeParse(parseJson(request.rawBody));
      if (!parsed.success) throw new CallbackRejectedError("replicate", "Replicate webhook body is not a prediction");
      return { predictionId: parsed.data.id, result: predictionResult(parsed.data) };
    };
  }
  return adapter;
}

/** Official models run by name; a pinned `owner/name:version` goes through /v1/predictions. */
function createPath(providerModelId: string, body: Record<string, unknown>): string {
  const [, version] = providerModelId.split(":", 2);
  if (version) {
    body.version = version;
    return "/v1/predictions";
  }
  const [owner, name, ...rest] = modelName(providerModelId).split("/");
  if (!owner || !name || rest.length > 0) {
    throw new ProviderError("replicate", "ERR4002", `replicate: "${providerModelId}" is not an owner/name model id`, "bad model id");
  }
  return `/v1/models/${encodeURIComponent(owner)}/${encodeURIComponent(name)}/predictions`;
}

function readPrediction(response: ProviderResponse): ReplicatePrediction {
  const parsed = replicatePredictionSchema.safeParse(response.body);
  if (!parsed.success) {
    throw new ProviderError(
      "replicate",
      "ERR4002",
      "replicate: the answer is not a prediction object",
      `HTTP ${response.status} unexpected body`,
    );
  }
  return parsed.data;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
