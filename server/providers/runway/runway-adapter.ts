import "server-only";
import { DEFAULT_PROVIDER_TIMEOUT_MS, providerErrorFromResponse, sendProviderRequest, type ProviderResponse } from "../http-errors";
import { ProviderError, type ProviderAdapter, type ProviderJob, type SubmitResult } from "../types";
import { buildRunwayCreate } from "./build-runway-input";
import { checkRunway } from "./check-runway";
import { runwayCreatedSchema, runwayTaskSchema, taskResult } from "./runway-task";

// Runway's API (https://docs.dev.runwayml.com/api/): a create call answers a task id, the task is
// read by GET /v1/tasks/{id} until it ends, DELETE /v1/tasks/{id} cancels it. Every call carries
// Bearer auth and the X-Runway-Version it was written against. Runway sends no callbacks.

export const RUNWAY_API_VERSION = "2024-11-06";

export type RunwayAdapterOptions = {
  apiSecret: string;
  /** https://api.dev.runwayml.com, or a local fake. */
  baseUrl: string;
  timeoutMs?: number;
};

export function createRunwayAdapter(options: RunwayAdapterOptions): ProviderAdapter {
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const timeoutMs = options.timeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS;

  function call(method: string, path: string, body?: unknown): Promise<ProviderResponse> {
    const headers: Record<string, string> = {
      Authorization: `Bearer ${options.apiSecret}`,
      "X-Runway-Version": RUNWAY_API_VERSION,
      Accept: "application/json",
    };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    return sendProviderRequest(
      "runway",
      `${baseUrl}${path}`,
      { method, headers, body: body === undefined ? undefined : JSON.stringify(body) },
      timeoutMs,
    );
  }

  const taskPath = (id: string) => `/v1/tasks/${encodeURIComponent(id)}`;

  return {
    id: "runway",

    async submit(job: ProviderJob): Promise<SubmitResult> {
      const create = buildRunwayCreate(job);
      const response = await call("POST", create.path, create.body);
      if (!response.ok) throw providerErrorFromResponse("runway", response);
      const created = runwayCreatedSchema.safeParse(response.body);
      if (!created.success) throw notUnderstood(response, "the create answer has no task id");
      return { kind: "accepted", predictionId: created.data.id };
    },

    async poll(predictionId: string) {
      const response = await call("GET", taskPath(predictionId));
      if (!response.ok) throw providerErrorFromResponse("runway", response);
      const task = runwayTaskSchema.safeParse(response.body);
      // Runway answered, in words we do not know: asking again would not help, so the attempt ends.
      if (!task.success) return { status: "failed", error: notUnderstood(response, "the answer is not a task") };
      return taskResult(task.data);
    },

    async cancel(predictionId: string): Promise<boolean> {
      try {
        return (await call("DELETE", taskPath(predictionId))).ok;
      } catch {
        return false;
      }
    },

    check: (providerModelIds) => checkRunway((path) => call("GET", path), providerModelIds),
  };
}

function notUnderstood(response: ProviderResponse, what: string): ProviderError {
  return new ProviderError("runway", "ERR4002", `runway: ${what}`, `HTTP ${response.status} unexpected body`);
}
