import type { DownloadOperationSpec } from "./generated/operations.js";
import {
  connectionError,
  errorOfAnswer,
  fillPath,
  retryDelayMs,
  sleep,
  type CallInput,
  type ResponseMeta,
  type Transport,
} from "./transport.js";

// The downloads (GET /v1/usage/export): a file answered as it streams, not an envelope. The
// request is retried like any read until the file starts (a refusal is the envelope's error);
// the client's timeout covers the wait for the answer, not the reading of the file, which the
// caller's signal can end.

export type FileDownload = {
  /** The name the server gives the file (Content-Disposition), or null. */
  filename: string | null;
  contentType: string | null;
  /** The file's bytes as they arrive; read it once (or use `text()`). */
  body: ReadableStream<Uint8Array>;
  /** The whole file as text (reads `body`). */
  text(): Promise<string>;
  readonly lastResponse: ResponseMeta;
};

function filenameOf(disposition: string | null): string | null {
  return disposition?.match(/filename="([^"]*)"/)?.[1] ?? null;
}

export async function download(transport: Transport, operation: DownloadOperationSpec, input: CallInput = {}): Promise<FileDownload> {
  const url = transport.url(fillPath(operation.path, input.params), input.query);
  const maxRetries = input.maxRetries ?? transport.options.maxRetries;
  const timeoutMs = input.timeoutMs ?? transport.options.timeoutMs;
  for (let attempt = 0; ; attempt++) {
    const controller = new AbortController();
    const onAbort = () => controller.abort(input.signal?.reason);
    if (input.signal?.aborted) throw input.signal.reason;
    input.signal?.addEventListener("abort", onAbort, { once: true });
    const timer = setTimeout(() => controller.abort(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
    try {
      const response = await transport
        .fetch(url, {
          method: operation.method,
          headers: transport.headers({ accept: `${operation.contentType}, application/json` }),
          signal: controller.signal,
        })
        .catch((cause: unknown) => {
          throw connectionError(`The connection to ${url} failed: ${String((cause as Error)?.message ?? cause)}`, cause);
        });
      clearTimeout(timer);
      const type = response.headers.get("content-type");
      if (!response.ok || !response.body || type?.startsWith("application/json")) throw await errorOfAnswer(response);
      const body = response.body;
      const meta: ResponseMeta = {
        requestId: response.headers.get("x-request-id"),
        status: response.status,
        headers: response.headers,
        idempotencyReplayed: false,
        attempts: attempt + 1,
      };
      const file = {
        filename: filenameOf(response.headers.get("content-disposition")),
        contentType: type,
        body,
        text: () => new Response(body).text(),
      };
      Object.defineProperty(file, "lastResponse", { value: meta, enumerable: false });
      return file as FileDownload;
    } catch (error) {
      clearTimeout(timer);
      input.signal?.removeEventListener("abort", onAbort);
      if (input.signal?.aborted) throw input.signal.reason ?? error;
      const delay = attempt < maxRetries ? retryDelayMs(error, attempt) : null;
      if (delay === null) throw error;
      await sleep(delay, input.signal);
    }
  }
}
