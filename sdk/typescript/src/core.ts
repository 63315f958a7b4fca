import { DarkroomError } from "./errors.js";
import { download, type FileDownload } from "./downloads.js";
import {
  downloadOperations,
  operations,
  streamOperations,
  type DownloadOperationId,
  type OperationData,
  type OperationId,
  type StreamEventData,
  type StreamOperationId,
} from "./generated/operations.js";
import type * as types from "./generated/types.js";
import { readEventStream, type StreamEvent, type StreamOptions } from "./sse.js";
import { fillPath, Transport, withResponse, type CallInput, type FetchLike, type RequestOptions, type WithResponse } from "./transport.js";
import { verifyWebhook, type VerifyOptions, type WebhookEvent, type WebhookHeaders } from "./webhooks.js";

// The hand-written core under the generated client (generated/client.ts): options, the transport,
// one call of the generated table, the create helper (Idempotency-Key, wait, Cancel-After), the
// stream reader and pagination, and webhook verification.

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

/** One event of a stream, typed by its name (`event.event === "generation.attempt"` narrows `data`). */
export type StreamEventOf<Id extends StreamOperationId> = {
  [Name in keyof StreamEventData[Id]]: StreamEvent<StreamEventData[Id][Name]> & { event: Name };
}[keyof StreamEventData[Id]];
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

export type WaitOptions = {
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Between polls when the stream is not available; 1 s by default. */ pollIntervalMs?: number;
};
export type PageOptions = RequestOptions & { limit?: number; offset?: number };

type PaginatedId = { [Id in OperationId]: (typeof operations)[Id]["paginated"] extends true ? Id : never }[OperationId];
/** A paginated list's data with `total`, `limit`, `offset`, `has_more` and `next_cursor` from beside it. */
export type Page<Id extends OperationId> = OperationData[Id] & {
  total: number;
  limit: number;
  offset: number;
  has_more: boolean;
  /** The last item's id when `has_more`: the next page's `startingAfter`. */
  next_cursor: string | null;
};
/** What `request` answers for an operation: its `data`, a page for the paginated lists. */
export type ResultOf<Id extends OperationId> = Id extends PaginatedId ? Page<Id> : OperationData[Id] & object;
export type GenerationList = Page<"listGenerations">;

/** `wait` ran out before the generation finished; `lastRecord` is what was last seen. */
export class WaitTimeoutError extends DarkroomError {
  constructor(
    readonly generationId: string,
    readonly lastRecord: types.GenerationRecord | null,
    timeoutMs: number,
  ) {
    super({
      message: `Generation ${generationId} did not finish within ${timeoutMs} ms`,
      code: "wait_timeout",
      type: "wait_timeout",
      status: 0,
      retryable: true,
      requestId: null,
    });
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

export const isTerminal = (record: { generation_status: string }) =>
  (TERMINAL_STATUSES as readonly string[]).includes(record.generation_status);

export abstract class ClientCore {
  readonly transport: Transport;
  /** The generated client's resource, with the hand-written `wait` the create helper uses. */
  abstract readonly generations: { wait(id: string, options?: WaitOptions): Promise<types.GenerationRecord> };

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
  async request<Id extends OperationId>(operationId: Id, input: CallInput = {}): Promise<WithResponse<ResultOf<Id>>> {
    const { envelope, meta } = await this.transport.call(operations[operationId], input);
    const data = operations[operationId].paginated
      ? {
          ...(envelope.data as object),
          total: envelope.total,
          limit: envelope.limit,
          offset: envelope.offset,
          has_more: envelope.has_more,
          next_cursor: envelope.next_cursor,
        }
      : envelope.data;
    return withResponse(data as ResultOf<Id>, meta);
  }

  /** Calls one download of the generated table: the file as it streams, with its name and `lastResponse`. */
  download(operationId: DownloadOperationId, input: CallInput = {}): Promise<FileDownload> {
    return download(this.transport, downloadOperations[operationId], input);
  }

  /** Calls a create operation: always with an Idempotency-Key, so the client's own retries never start two generations. */
  async create<Id extends OperationId>(
    operationId: Id,
    params: Record<string, string>,
    body: object,
    options: CreateOptions,
  ): Promise<WithResponse<ResultOf<Id>>> {
    const { idempotencyKey, wait, cancelAfter, ...rest } = options;
    const created = await this.request(operationId, {
      ...rest,
      params,
      body,
      headers: { "idempotency-key": idempotencyKey ?? newIdempotencyKey(), "cancel-after": cancelAfterHeader(cancelAfter) },
    });
    if (!wait) return created;
    const timeoutMs = typeof wait === "object" ? wait.timeoutMs : undefined;
    const generation = created as unknown as types.GenerationCreated;
    generation.generation_record = await this.generations.wait(generation.generation_id, { timeoutMs, signal: rest.signal });
    return created;
  }

  /**
   * Reads one live stream of the generated table; it ends after an event of its `endsAfter`, or
   * when a snapshot shows the generation finished and the server then ends the stream.
   */
  stream<Id extends StreamOperationId>(
    operationId: Id,
    params: Record<string, string>,
    query: Record<string, string | undefined>,
    options: StreamOptions = {},
  ): AsyncGenerator<StreamEventOf<Id>> {
    const spec = streamOperations[operationId];
    const endsAfter = new Set<string>(spec.endsAfter);
    const finished = (event: StreamEvent<unknown>) =>
      endsAfter.size > 0 && event.event === "generation.snapshot" && isTerminal((event.data ?? {}) as { generation_status: string });
    return readEventStream<unknown>(
      this.transport,
      fillPath(spec.path, params),
      query,
      options,
      (event) => endsAfter.has(event.event),
      finished,
    ) as AsyncGenerator<StreamEventOf<Id>>;
  }

  /** Every page of a paginated list from `offset` on (`limit` per page, 100 by default). */
  async *pages<Id extends PaginatedId>(
    operationId: Id,
    itemsKey: keyof OperationData[Id],
    options: PageOptions = {},
  ): AsyncGenerator<WithResponse<Page<Id>>> {
    const { limit = 100, ...rest } = options;
    let offset = options.offset ?? 0;
    for (;;) {
      const page = (await this.request(operationId, { ...rest, query: { limit, offset } })) as WithResponse<Page<Id>>;
      yield page;
      const items = page[itemsKey] as unknown[];
      offset += items.length;
      if (items.length === 0 || offset >= page.total) return;
    }
  }

  /** Every item of a paginated list from `offset` on, fetching pages as the loop goes. */
  async *iterate<Id extends PaginatedId, Key extends keyof OperationData[Id]>(
    operationId: Id,
    itemsKey: Key,
    options: PageOptions = {},
  ): AsyncGenerator<ItemOf<OperationData[Id][Key]>> {
    for await (const page of this.pages(operationId, itemsKey, options)) yield* page[itemsKey] as Array<ItemOf<OperationData[Id][Key]>>;
  }

  readonly webhooks = {
    /** Checks a delivery's `X-Service-Signature` and returns the parsed event; throws WebhookVerificationError. */
    verify: <T = types.GenerationRecord>(
      rawBody: string | Uint8Array,
      headers: WebhookHeaders,
      secret: string,
      options: VerifyOptions = {},
    ): Promise<WebhookEvent<T>> => verifyWebhook<T>(rawBody, headers, secret, options),
  };
}

type ItemOf<List> = List extends Array<infer Item> ? Item : never;
