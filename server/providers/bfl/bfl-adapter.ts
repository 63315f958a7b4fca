import "server-only";
import {
  CallbackRejectedError,
  DEFAULT_PROVIDER_TIMEOUT_MS,
  providerErrorFromResponse,
  sendProviderRequest,
  type ProviderResponse,
} from "../http-errors";
import {
  ProviderError,
  type CallbackRequest,
  type ProviderAdapter,
  type ProviderJob,
  type ProviderResult,
  type SubmitResult,
} from "../types";
import { buildBflInput } from "./build-bfl-input";
import { bflResultSchema, bflSubmitSchema, bflTaskResult } from "./bfl-result";
import { checkBfl } from "./check-bfl";
import { verifyBflWebhook } from "./verify-bfl-webhook";

// Black Forest Labs' API (https://docs.bfl.ai/api-reference, OpenAPI https://api.bfl.ai/openapi.json):
// `POST /v1/{model}` with `x-key` answers `{id, polling_url}`; the task is read at its polling_url
// (GET /v1/get_result?id=… on the region that runs it) until Ready, Error or moderated. BFL has
// no cancel endpoint: a task runs to its end and is discarded.

export type BflAdapterOptions = {
  apiKey: string;
  /** https://api.bfl.ai, or a local fake. */
  baseUrl: string;
  /** Sent as `webhook_secret` with each task; without it no webhook is asked for and there is no parseCallback. */
  webhookSecret?: string | null;
  timeoutMs?: number;
};

const MAX_REMEMBERED_TASKS = 10_000;

export function createBflAdapter(options: BflAdapterOptions): ProviderAdapter {
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const timeoutMs = options.timeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS;
  const webhookSecret = options.webhookSecret ?? null;
  // The polling_url of tasks this process submitted; other tasks are read at the global endpoint.
  const pollingUrls = new Map<string, string>();

  function remember(taskId: string, pollingUrl: string) {
    if (pollingUrls.size >= MAX_REMEMBERED_TASKS) pollingUrls.delete(pollingUrls.keys().next().value as string);
    pollingUrls.set(taskId, pollingUrl);
  }

  async function call(method: string, url: string, body?: unknown): Promise<ProviderResponse> {
    const headers: Record<string, string> = { "x-key": options.apiKey, Accept: "application/json" };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    return sendProviderRequest("bfl", url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }, timeoutMs);
  }

  const adapter: ProviderAdapter = {
    id: "bfl",

    async submit(job: ProviderJob): Promise<SubmitResult> {
      const webhook = webhookSecret ? { url: job.callbackUrl, secret: webhookSecret } : null;
      const response = await call("POST", `${baseUrl}/v1/${encodeURIComponent(job.providerModelId)}`, buildBflInput(job, webhook));
      if (!response.ok) throw providerErrorFromResponse("bfl", response);
      const parsed = bflSubmitSchema.safeParse(response.body);
      if (!parsed.success)
        throw new ProviderError("bfl", "ERR4002", "bfl: the submit answer has no task id", `HTTP ${response.status} unexpected body`);
      const pollingUrl = parsed.data.polling_url;
      if (pollingUrl && trustedPollingUrl(pollingUrl, baseUrl)) remember(parsed.data.id, pollingUrl);
      return { kind: "accepted", predictionId: parsed.data.id };
    },

    async poll(predictionId: string, job: ProviderJob): Promise<ProviderResult> {
      const url = pollingUrls.get(predictionId) ?? `${baseUrl}/v1/get_result?id=${encodeURIComponent(predictionId)}`;
      const response = await call("GET", url);
      // Our key, the rate limit or an outage: the task may still be fine, so the run asks again.
      if (transientStatus(response.status)) throw providerErrorFromResponse("bfl", response);
      const task = bflResultSchema.safeParse(response.body);
      // Asking again would not help an answer we cannot read (or a 404 without a task): the attempt fails.
      const result = task.success
        ? bflTaskResult(task.data, job.outputFormat)
        : failed(
            response.ok
              ? new ProviderError(
                  "bfl",
                  "ERR4002",
                  "bfl: the result answer is not a task result",
                  `HTTP ${response.status} unexpected body`,
                )
              : providerErrorFromResponse("bfl", response),
          );
      if (result.status !== "running") pollingUrls.delete(predictionId);
      return result;
    },

    cancel: () => Promise.resolve(false),

    check: (providerModelIds) => checkBfl((path) => call("GET", `${baseUrl}${path}`), providerModelIds),
  };

  if (webhookSecret) {
    adapter.parseCallback = async (request: CallbackRequest) => {
      verifyBflWebhook(request, webhookSecret);
      const parsed = bflResultSchema.safeParse(parseJson(request.rawBody));
      if (!parsed.success) throw new CallbackRejectedError("bfl", "BFL webhook body is not a task result");
      return { predictionId: parsed.data.id, result: bflTaskResult(parsed.data, null) };
    };
  }
  return adapter;
}

function transientStatus(status: number): boolean {
  return status === 401 || status === 403 || status === 408 || status === 429 || status >= 500;
}

function failed(error: ProviderError): ProviderResult {
  return { status: "failed", error };
}

/**
 * The polling_url carries our key with it: followed only on the configured API's origin or on
 * one of BFL's own hosts (its regional endpoints, api.us1.bfl.ai and the like), over https.
 */
function trustedPollingUrl(pollingUrl: string, baseUrl: string): boolean {
  if (!URL.canParse(pollingUrl)) return false;
  const target = new URL(pollingUrl);
  if (target.origin === new URL(baseUrl).origin) return true;
  return target.protocol === "https:" && (target.hostname === "bfl.ai" || target.hostname.endsWith(".bfl.ai"));
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
