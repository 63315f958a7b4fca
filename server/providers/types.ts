import "server-only";
import type { ModelDefinition } from "../catalog";
import type { ProviderId } from "../catalog/providers";

// The contract every inference provider adapter implements: submit, then either
// a synchronous result, or polling / a callback, plus cancel and error mapping. The generation run
// (server/generations/run) drives adapters only through this file's types.

/** What a provider is asked to make: the validated request, in the provider's own model id. */
export type ProviderJob = {
  generationId: string;
  /** 1-based attempt number within the generation's provider chain. */
  attempt: number;
  model: ModelDefinition;
  providerModelId: string;
  prompt: string | null;
  ratio: string;
  outputFormat: string;
  outputCount: number;
  durationSeconds: number | null;
  resolution: string | null;
  generateAudio: boolean;
  /** Public URLs, already checked by the SSRF-safe fetcher's rules. */
  inputFiles: string[];
  inputFileLastContent: string | null;
  /** Deterministic per generation, so a retried attempt renders the same thing. */
  seed: number;
  /** Where a webhook-capable provider should POST its result (our /api/providers/{id}/callback). */
  callbackUrl: string;
};

/** An output either arrives as bytes (local renderers) or as a URL we download and store. */
export type ProviderOutput = { kind: "bytes"; bytes: Uint8Array; contentType: string } | { kind: "url"; url: string; contentType?: string };

export type ProviderResult =
  | { status: "running" }
  | { status: "succeeded"; outputs: ProviderOutput[]; predictTimeSeconds: number | null }
  | { status: "failed"; error: ProviderError }
  | { status: "canceled" };

export type SubmitResult =
  /** The provider answered with the finished result in the same call (OpenAI Images, local). */
  | { kind: "completed"; predictionId: string; result: ProviderResult }
  /** The job runs on the provider; its result comes by poll or callback. */
  | { kind: "accepted"; predictionId: string };

export type ProviderErrorCode = "ERR4001" | "ERR4002" | "ERR4003" | "ERR4005";

/**
 * A provider failure, mapped to our codes: ERR4001 timeout, ERR4002 unavailable
 * (rate limit, capacity, 5xx, service pause, auth problems on our side), ERR4003 upload failure,
 * ERR4005 rejected (content policy or invalid input: failing over would not help).
 */
export class ProviderError extends Error {
  readonly code: ProviderErrorCode;
  readonly provider: ProviderId;
  /** The provider's own HTTP status or error code, for the attempt record. */
  readonly providerDetail: string | null;

  constructor(provider: ProviderId, code: ProviderErrorCode, message: string, providerDetail: string | null = null) {
    super(message);
    this.name = "ProviderError";
    this.provider = provider;
    this.code = code;
    this.providerDetail = providerDetail;
  }

  /** Content-policy rejections are final; everything else moves on to the next provider. */
  get failover(): boolean {
    return this.code !== "ERR4005";
  }

  toJSON() {
    return { provider: this.provider, code: this.code, message: this.message, provider_detail: this.providerDetail };
  }
}

export type CallbackRequest = { headers: Headers; rawBody: string };

/**
 * What read-only calls to the provider found (`npm run cli -- catalog:check`): whether it took our
 * credential and, where the provider can say, whether each model id exists (null: not asked, or
 * the answer could not tell). `detail` says why, naming the provider.
 */
export type ProviderCheck = {
  credential: "ok" | "refused" | "unreachable";
  models: { providerModelId: string; found: boolean | null }[] | "not_checkable";
  detail?: string;
};

export interface ProviderAdapter {
  readonly id: ProviderId;
  /**
   * Synchronous providers that name the prediction before answering return that name here, so
   * a cancel can reach a job still in its submit call.
   */
  predictionIdFor?(job: ProviderJob): string;
  /** Starts the job. Throws ProviderError for refusals, rate limits, timeouts. */
  submit(job: ProviderJob): Promise<SubmitResult>;
  /** The job's state now. Throws ProviderError when the provider cannot be asked. */
  poll(predictionId: string, job: ProviderJob): Promise<ProviderResult>;
  /** Best-effort cancel; true when the provider acknowledged it. Never throws. */
  cancel(predictionId: string): Promise<boolean>;
  /**
   * Verifies and reads a callback the provider POSTed to us. Throws when the signature is
   * wrong. Absent for providers that send no callbacks.
   */
  parseCallback?(request: CallbackRequest): Promise<{ predictionId: string; result: ProviderResult }>;
  /** Confirms the credential and the model ids with the provider's cheapest read-only calls; never creates or charges anything. Never throws. */
  check?(providerModelIds: string[]): Promise<ProviderCheck>;
}
