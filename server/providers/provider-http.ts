import "server-only";
import http, { type IncomingMessage } from "node:http";
import https from "node:https";
import { asStaleConnection, StaleConnection } from "../base/net/stale-connection";

// The provider APIs (Replicate, fal, OpenAI) over Node's http client with keep-alive agents, one
// pair per process. Not fetch: each call through undici's fetch (and Next's patched fetch around
// it) cost about 0.35 ms more CPU than the same exchange here, twice per Replicate generation
// (docs/benchmarking.md). Provider base URLs are our configuration, not a customer's, so no
// destination check (that is server/base/net/safe-fetch.ts, for provider output URLs and webhooks). No
// redirect is followed: none of the three APIs answers a call with one, and an answer that does
// is mapped like any other non-2xx status.

export type ProviderRequest = {
  method: string;
  headers?: Record<string, string>;
  body?: string | undefined;
  /** Aborts the exchange (a cancel of a synchronous job): rejects with an AbortError. */
  signal?: AbortSignal;
  /** A lower cap than PROVIDER_ANSWER_MAX_BYTES for this answer. */
  maxAnswerBytes?: number;
};
/** `bytes` is the answer as received (a downloaded video); `text` the same, read as UTF-8. */
export type ProviderAnswer = { status: number; headers: Headers; text: string; bytes: Buffer };

/** A provider answer larger than this is refused (OpenAI's base64 images are the largest, a few MB each). */
export const PROVIDER_ANSWER_MAX_BYTES = 64 * 1024 * 1024;
/** Idle connections close after 2 s, before a server's usual 5 s keep-alive timeout. */
const IDLE_CONNECTION_MS = 2_000;

const agents = {
  "http:": new http.Agent({ keepAlive: true, timeout: IDLE_CONNECTION_MS, maxSockets: 64, scheduling: "lifo" }),
  "https:": new https.Agent({ keepAlive: true, timeout: IDLE_CONNECTION_MS, maxSockets: 64, scheduling: "lifo" }),
};

/** The deadline of one call passed (named as fetch names its AbortSignal.timeout error). */
export class ProviderCallTimeout extends Error {
  constructor(readonly timeoutMs: number) {
    super(`No complete answer within ${timeoutMs} ms`);
    this.name = "TimeoutError";
  }
}

/** The answer passed its cap (PROVIDER_ANSWER_MAX_BYTES or the request's maxAnswerBytes). */
export class ProviderAnswerTooLarge extends Error {
  constructor(readonly maxBytes: number) {
    super(`the answer is larger than ${maxBytes} bytes`);
    this.name = "ProviderAnswerTooLarge";
  }
}

/**
 * One exchange, read whole, within `timeoutMs` (connect, request, answer). Transport failures
 * reject with Node's error (its `code`: ECONNREFUSED, ENOTFOUND, …) or ProviderCallTimeout.
 */
export async function providerHttp(url: string, request: ProviderRequest, timeoutMs: number): Promise<ProviderAnswer> {
  const target = new URL(url);
  if (target.protocol !== "http:" && target.protocol !== "https:") throw new TypeError(`unsupported protocol ${target.protocol}`);
  const deadline = Date.now() + timeoutMs;
  try {
    return await exchange(target, request, timeoutMs, deadline, true);
  } catch (error) {
    // The server closed an idle connection as we reused it, before reading the request: once more on a new one.
    if (error instanceof StaleConnection) return exchange(target, request, timeoutMs, deadline, false);
    throw error;
  }
}

function exchange(target: URL, request: ProviderRequest, timeoutMs: number, deadline: number, pooled: boolean): Promise<ProviderAnswer> {
  const body = request.body === undefined ? undefined : Buffer.from(request.body);
  const headers: Record<string, string> = { ...request.headers };
  if (body) headers["content-length"] = String(body.byteLength);
  const transport = target.protocol === "https:" ? https : http;
  const maxBytes = Math.min(request.maxAnswerBytes ?? PROVIDER_ANSWER_MAX_BYTES, PROVIDER_ANSWER_MAX_BYTES);

  return new Promise<ProviderAnswer>((resolve, reject) => {
    let settled = false;
    let answered = false;
    const req = transport.request(target, {
      method: request.method,
      headers,
      agent: pooled ? agents[target.protocol as "http:" | "https:"] : false,
    });
    const timer = setTimeout(() => fail(new ProviderCallTimeout(timeoutMs)), Math.max(1, deadline - Date.now()));
    const abort = () => fail(Object.assign(new Error("the call was aborted"), { name: "AbortError" }));
    function fail(error: unknown) {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.signal?.removeEventListener("abort", abort);
      req.destroy();
      reject(asStaleConnection(req, answered, error) ?? error);
    }
    req.on("error", fail);
    if (request.signal?.aborted) abort();
    request.signal?.addEventListener("abort", abort, { once: true });
    req.on("response", (res: IncomingMessage) => {
      answered = true;
      const chunks: Buffer[] = [];
      let received = 0;
      res.on("data", (chunk: Buffer) => {
        received += chunk.byteLength;
        if (received > maxBytes) return fail(new ProviderAnswerTooLarge(maxBytes));
        chunks.push(chunk);
      });
      res.on("error", fail);
      res.on("close", () => {
        if (!res.complete) fail(Object.assign(new Error("the connection closed before the answer was complete"), { code: "ECONNRESET" }));
      });
      res.on("end", () => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        request.signal?.removeEventListener("abort", abort);
        const answerHeaders = new Headers();
        for (let index = 0; index + 1 < res.rawHeaders.length; index += 2)
          answerHeaders.append(res.rawHeaders[index] as string, res.rawHeaders[index + 1] as string);
        const bytes = Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, headers: answerHeaders, text: bytes.toString("utf8"), bytes });
      });
    });
    req.end(body);
  });
}
