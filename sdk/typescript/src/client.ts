import { DarkroomError, AuthenticationError, PermissionError } from "./errors.js";
import { operations, streamOperations, type OperationData, type OperationId, type StreamEventData, type StreamOperationId } from "./generated/operations.js";
import type * as types from "./generated/types.js";
import { readEventStream, type StreamEvent, type StreamOptions } from "./sse.js";
import { fillPath, sleep, Transport, withResponse, type CallInput, type FetchLike, type RequestOptions, type WithResponse } from "./transport.js";
import { verifyWebhook, type VerifyOptions, type WebhookEvent, type WebhookHeaders } from "./webhooks.js";

// The client: one method per /v1 operation and per live stream (the generated method tables say
// where each goes and which events a stream sends), plus `wait` and webhook verification.

export const VERSION = "0.1.0";

export type Region = "us" | "eu" | "jp";

export type DarkroomOptions = {
  /** `dkr_…`; DARKROOM_API_KEY when omitted (where the runtime has process.env). */
  apiKey?: string;
  /**
   * The region's address, with or without `/v1` (e.g. `https://api.example.com/v1`). May hold
   * `{region}`, filled from `region`. DARKROOM_BASE_URL, else http://localhost:3000, when omitted.
   */
  baseUrl?: string;
  /** Fills `{region}` in `baseUrl`. A key works only in its own region. */
  region?: Region | (string & {});
  /** Retries of a retryable failure (connection errors, 429, 5xx, ERR2016), 2 by default. */
  maxRetries?: number;
  /** Per attempt, 60 s by default. */
  timeoutMs?: number;
  /** Another fetch (a proxy agent, a test double); the global fetch by default. */
  fetch?: FetchLike;
};

export const TERMINAL_STATUSES = ["succeeded", "failed", "canceled"] as const;
/** The events after which a generation's own stream ends (from the document). */
const TERMINAL_EVENTS: ReadonlySet<string> = new Set(streamOperations.streamGenerationEvents.endsAfter);

/** One event of a stream, typed by its name (`event.event === "generation.attempt"` narrows `data`). */
export type StreamEventOf<Id extends StreamOperationId> = { [Name in keyof StreamEventData[Id]]: StreamEvent<StreamEventData[Id][Name]> & { event: Name } }[keyof StreamEventData[Id]];
/** An event of `generations.stream` or `events.stream`: `generation.snapshot|created|processing|completed|failed|canceled` carry the record. */
export type GenerationEvent = StreamEventOf<"streamGenerationEvents"> | StreamEventOf<"streamAccountEvents">;
export type GenerationAttempt = types.GenerationAttemptEvent;

export type CreateOptions = RequestOptions & {
  /** Makes the create safe to repeat; the client makes one when omitted, so its own retries never start two generations. */
  idempotencyKey?: string;
  /** Wait for the generation to finish (the stream, falling back to polling) and return it in `generation_record`. */
  wait?: boolean | { timeoutMs?: number };
  /** A deadline (`Cancel-After`): `"90s"`, `"5m"`, `"1h30m"`, or seconds. Past it the generation is canceled and refunded. */
  cancelAfter?: string | number;
};

export type EstimateOptions = RequestOptions & { count?: number; duration?: number; resolution?: string; audio?: boolean };
export type ListOptions = RequestOptions & { limit?: number; offset?: number };
export type WaitOptions = { timeoutMs?: number; signal?: AbortSignal; /** Between polls when the stream is not available; 1 s by default. */ pollIntervalMs?: number };
export type GenerationList = types.GenerationList & { total: number; limit: number; offset: number };

/** `wait` ran out before the generation finished; `lastRecord` is what was last seen. */
export class WaitTimeoutError extends DarkroomError {
  constructor(
    readonly generationId: string,
    readonly lastRecord: types.GenerationRecord | null,
    timeoutMs: number,
  ) {
    super({ message: `Generation ${generationId} did not finish within ${timeoutMs} ms`, code: "wait_timeout", type: "wait_timeout", status: 0, retryable: true, requestId: null });
  }
}

function environment(name: string): string | undefined {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  return env?.[name];
}

function newIdempotencyKey(): string {
  const webCrypto = globalThis.crypto as Crypto | undefined;
  if (webCrypto?.randomUUID) return `sdk-${webCrypto.randomUUID()}`;
  return `sdk-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`;
}

function cancelAfterHeader(value: string | number | undefined): string | undefined {
  if (value === undefined) return undefined;
  return typeof value === "number" ? `${Math.round(value)}s` : value;
}

export const isTerminal = (record: { generation_status: string }) => (TERMINAL_STATUSES as readonly string[]).includes(record.generation_status);

export class Darkroom {
  readonly transport: Transport;

  constructor(options: DarkroomOptions = {}) {
    const apiKey = options.apiKey ?? environment("DARKROOM_API_KEY");
    if (!apiKey) throw new TypeError("Darkroom: apiKey is required (or set DARKROOM_API_KEY)");
    let base = options.baseUrl ?? environment("DARKROOM_BASE_URL") ?? "http://localhost:3000";
    if (base.includes("{region}")) {
      if (!options.region) throw new TypeError("Darkroom: baseUrl has {region} but no region was given");
      base = base.replaceAll("{region}", options.region);
    }
    const origin = base.replace(/\/+$/, "").replace(/\/v1$/, "");
    this.transport = new Transport({
      apiKey,
      origin,
      maxRetries: options.maxRetries ?? 2,
      timeoutMs: options.timeoutMs ?? 60_000,
      fetch: options.fetch ?? ((input, init) => fetch(input, init)),
      userAgent: `darkroom-typescript/${VERSION}`,
    });
  }

  /** Calls one operation of the generated table and returns its `data` with `lastResponse`. */
  async request<Id extends OperationId>(operationId: Id, input: CallInput = {}): Promise<WithResponse<OperationData[Id] & object>> {
    const { envelope, meta } = await this.transport.call(operations[operationId], input);
    const data = (operations[operationId].paginated ? { ...(envelope.data as object), total: envelope.total, limit: envelope.limit, offset: envelope.offset } : envelope.data) as OperationData[Id] &
      object;
    return withResponse(data, meta);
  }

  /** The key and its account (`GET /v1/status`). */
  status(options: RequestOptions = {}) {
    return this.request("getStatus", options);
  }

  /** Requests, generations and spend over the last `days` (1-90, default 30). */
  usage(options: RequestOptions & { days?: number } = {}) {
    const { days, ...rest } = options;
    return this.request("getUsage", { ...rest, query: { days } });
  }

  account(options: RequestOptions = {}) {
    return this.request("getAccount", options);
  }

  billing(options: RequestOptions = {}) {
    return this.request("getBilling", options);
  }

  /** What `count` outputs (and a video's duration, resolution, audio) would cost, and whether the balance covers it. */
  estimate(model: string, options: EstimateOptions = {}) {
    const { count, duration, resolution, audio, ...rest } = options;
    return this.request("getEstimate", { ...rest, params: { model_identifier: model }, query: { count, duration, resolution, audio } });
  }

  private async create(operationId: "createImageGeneration" | "createVideoGeneration", model: string, params: object, options: CreateOptions): Promise<WithResponse<types.GenerationCreated>> {
    const { idempotencyKey, wait, cancelAfter, ...rest } = options;
    const created = await this.request(operationId, {
      ...rest,
      params: { model_identifier: model },
      body: params,
      headers: { "idempotency-key": idempotencyKey ?? newIdempotencyKey(), "cancel-after": cancelAfterHeader(cancelAfter) },
    });
    if (!wait) return created;
    const timeoutMs = typeof wait === "object" ? wait.timeoutMs : undefined;
    created.generation_record = await this.generations.wait(created.generation_id, { timeoutMs, signal: rest.signal });
    return created;
  }

  readonly generate = {
    /** Starts an image generation (202: credits reserved, `pending`). */
    image: <M extends types.ImageModel | (string & {})>(model: M, params: M extends types.ImageModel ? types.ImageModelRequests[M] : types.GenerationRequestImage, options: CreateOptions = {}) =>
      this.create("createImageGeneration", model, params, options),
    /** Starts a video generation (`generation_duration` is required). */
    video: <M extends types.VideoModel | (string & {})>(model: M, params: M extends types.VideoModel ? types.VideoModelRequests[M] : types.GenerationRequestVideo, options: CreateOptions = {}) =>
      this.create("createVideoGeneration", model, params, options),
  };

  readonly generations = {
    get: (id: string, options: RequestOptions = {}) => this.request("getGeneration", { ...options, params: { generation_id: id } }),
    /** One page, newest first: `generations`, `total`, `limit`, `offset`. */
    list: (options: ListOptions = {}): Promise<WithResponse<GenerationList>> => {
      const { limit, offset, ...rest } = options;
      return this.request("listGenerations", { ...rest, query: { limit, offset } }) as Promise<WithResponse<GenerationList>>;
    },
    /** Every page from `offset` on (`limit` per page, 100 by default). */
    pages: (options: ListOptions = {}) => this.pages(options),
    /** Every generation from `offset` on, fetching pages as the loop goes: `for await (const g of client.generations.iterate())`. */
    iterate: (options: ListOptions = {}) => this.iterate(options),
    /** Cancels a `pending` or `processing` generation; refunds what it reserved. ERR1010 once terminal. */
    cancel: (id: string, options: RequestOptions = {}) => this.request("cancelGeneration", { ...options, params: { generation_id: id } }),
    /** Deletes the generation's output files; the record stays with `generation_removed: "true"`. */
    delete: (id: string, options: RequestOptions = {}) => this.request("deleteGeneration", { ...options, params: { generation_id: id } }),
    /** The generation's events as they happen: a snapshot first, then processing, attempts, and one terminal event that ends it. */
    stream: (id: string, options: StreamOptions = {}) => this.stream("streamGenerationEvents", { generation_id: id }, {}, options),
    /** The record once terminal: read from the stream, or by polling when the stream is not available. */
    wait: (id: string, options: WaitOptions = {}) => this.wait(id, options),
  };

  readonly events = {
    /** Every generation event of the account for as long as the loop runs (reconnecting with Last-Event-ID). */
    stream: (options: StreamOptions & { modelIdentifier?: string } = {}) => this.stream("streamAccountEvents", {}, { model_identifier: options.modelIdentifier }, options),
  };

  /**
   * Reads one live stream of the generated table; it ends after an event of its `endsAfter`, or
   * when a snapshot shows the generation finished and the server then ends the stream.
   */
  stream<Id extends StreamOperationId>(operationId: Id, params: Record<string, string>, query: Record<string, string | undefined>, options: StreamOptions = {}): AsyncGenerator<StreamEventOf<Id>> {
    const spec = streamOperations[operationId];
    const endsAfter = new Set<string>(spec.endsAfter);
    const finished = (event: StreamEvent<unknown>) => endsAfter.size > 0 && event.event === "generation.snapshot" && isTerminal((event.data ?? {}) as { generation_status: string });
    return readEventStream<unknown>(this.transport, fillPath(spec.path, params), query, options, (event) => endsAfter.has(event.event), finished) as AsyncGenerator<StreamEventOf<Id>>;
  }

  readonly health = {
    providers: (options: RequestOptions = {}) => this.request("getProviderHealth", options),
    models: (options: RequestOptions = {}) => this.request("getModelHealth", options),
    storage: (options: RequestOptions = {}) => this.request("getStorageHealth", options),
    cache: (options: RequestOptions = {}) => this.request("getCacheHealth", options),
  };

  readonly library = {
    providers: (options: RequestOptions = {}) => this.request("listProviders", options),
    models: (options: RequestOptions = {}) => this.request("listModels", options),
  };

  readonly webhooks = {
    /** Checks a delivery's `X-Service-Signature` and returns the parsed event; throws WebhookVerificationError. */
    verify: <T = types.GenerationRecord>(rawBody: string | Uint8Array, headers: WebhookHeaders, secret: string, options: VerifyOptions = {}): Promise<WebhookEvent<T>> =>
      verifyWebhook<T>(rawBody, headers, secret, options),
  };

  private async *pages(options: ListOptions): AsyncGenerator<WithResponse<GenerationList>> {
    const { limit = 100, ...rest } = options;
    let offset = options.offset ?? 0;
    for (;;) {
      const page = await this.generations.list({ ...rest, limit, offset });
      yield page;
      offset += page.generations.length;
      if (page.generations.length === 0 || offset >= page.total) return;
    }
  }

  private async *iterate(options: ListOptions): AsyncGenerator<types.GenerationRecord> {
    for await (const page of this.pages(options)) yield* page.generations;
  }

  private async wait(id: string, options: WaitOptions): Promise<types.GenerationRecord> {
    const timeoutMs = options.timeoutMs ?? 300_000;
    const deadline = Date.now() + timeoutMs;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new WaitTimeoutError(id, last, timeoutMs)), timeoutMs);
    const onAbort = () => controller.abort(options.signal?.reason);
    options.signal?.addEventListener("abort", onAbort, { once: true });
    let last: types.GenerationRecord | null = null;
    try {
      try {
        for await (const event of this.generations.stream(id, { signal: controller.signal })) {
          const data = event.data as types.GenerationRecord;
          if (data && typeof data === "object" && "generation_status" in data) last = data;
          if (TERMINAL_EVENTS.has(event.event) || (last && isTerminal(last))) return last ?? (data as types.GenerationRecord);
        }
      } catch (error) {
        if (controller.signal.aborted) throw controller.signal.reason;
        // A key that may not read is refused by polling too; anything else (no stream route on this
        // server, a proxy that buffers streams) falls back to polling.
        if (error instanceof AuthenticationError || error instanceof PermissionError) throw error;
      }
      for (let poll = 0; ; poll++) {
        last = await this.generations.get(id, { signal: controller.signal });
        if (isTerminal(last)) return last;
        const interval = Math.min(5_000, (options.pollIntervalMs ?? 1_000) * 1.5 ** Math.min(poll, 4));
        if (Date.now() + interval > deadline) throw new WaitTimeoutError(id, last, timeoutMs);
        await sleep(interval, controller.signal);
      }
    } catch (error) {
      throw controller.signal.aborted && !options.signal?.aborted ? new WaitTimeoutError(id, last, timeoutMs) : error;
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
    }
  }
}
