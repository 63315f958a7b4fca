import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import sharp from "sharp";

// The plumbing every provider fake shares: a node:http server on 127.0.0.1 and a free port, a log
// of what it received, output files served from /files/ on the same server, timers that die with
// it, and signed webhook deliveries recorded as they go out.

export type RecordedRequest = {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  rawBody: string;
  /** The body parsed as JSON, or null. */
  body: unknown;
};

export type WebhookDelivery = { url: string; headers: Record<string, string>; body: string; status: number | null };

/** The failures every fake can be told to produce; each fake answers them in its provider's words. */
export type FakeFailure = "rate_limit" | "server_error" | "content_policy" | "unauthorized" | "prediction_failed";

export type FakeScript = {
  /** API calls answer with this error from now on; `prediction_failed` lets calls succeed but the job fail. */
  fail?: FakeFailure | null;
  /** How long a job takes from creation to its end (default: the fake's own default). */
  delayMs?: number;
  /** Every API answer is held this long: for timeouts. */
  responseDelayMs?: number;
  /** The provider's error text for a failed job. */
  errorText?: string;
};

export type Route = (request: RecordedRequest, response: ServerResponse) => Promise<void> | void;

export type FakeServer = {
  baseUrl: string;
  requests: RecordedRequest[];
  webhooks: WebhookDelivery[];
  /** Stores bytes at /files/<name> and returns their URL. */
  putFile(name: string, bytes: Buffer, contentType: string): string;
  /** /files/<name> answers a 302 to `location`; returns its URL. */
  putRedirect(name: string, location: string): string;
  /**
   * /files/<name> declares `declaredBytes` (or, with null, no length: chunked), sends the first
   * 64 KiB and then holds the connection (or streams without end) until the client leaves.
   */
  putEndlessFile(name: string, contentType: string, declaredBytes: number | null): string;
  /** Runs `action` after `ms`, unless the server closes first. */
  later(ms: number, action: () => void): void;
  deliverWebhook(url: string, headers: Record<string, string>, body: string): Promise<void>;
  close(): Promise<void>;
};

export async function startFakeServer(route: Route): Promise<FakeServer> {
  const requests: RecordedRequest[] = [];
  const webhooks: WebhookDelivery[] = [];
  type ServedFile =
    | { kind: "bytes"; bytes: Buffer; contentType: string }
    | { kind: "redirect"; location: string }
    | { kind: "endless"; contentType: string; declaredBytes: number | null };
  const files = new Map<string, ServedFile>();
  const timers = new Set<NodeJS.Timeout>();
  let baseUrl = "";

  const server: Server = createServer((incoming, response) => {
    void handle(incoming, response).catch((error: unknown) => {
      if (!response.headersSent) sendJson(response, 500, { detail: `fake crashed: ${String(error)}` });
      else response.end();
    });
  });

  async function handle(incoming: IncomingMessage, response: ServerResponse) {
    const url = new URL(incoming.url ?? "/", baseUrl);
    const rawBody = await readBody(incoming);
    if (incoming.method === "GET" && url.pathname.startsWith("/files/")) {
      const file = files.get(decodeURIComponent(url.pathname.slice("/files/".length)));
      if (!file) return sendJson(response, 404, { detail: "Not found" });
      if (file.kind === "redirect") {
        response.writeHead(302, { Location: file.location, "Content-Length": 0 });
        response.end();
        return;
      }
      if (file.kind === "endless") return serveEndless(response, file.contentType, file.declaredBytes);
      response.writeHead(200, { "Content-Type": file.contentType, "Content-Length": file.bytes.length });
      response.end(file.bytes);
      return;
    }
    const request: RecordedRequest = {
      method: incoming.method ?? "GET",
      path: url.pathname,
      query: url.searchParams,
      headers: incoming.headers,
      rawBody,
      body: parseJson(rawBody),
    };
    requests.push(request);
    await route(request, response);
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    baseUrl,
    requests,
    webhooks,
    putFile(name, bytes, contentType) {
      files.set(name, { kind: "bytes", bytes, contentType });
      return `${baseUrl}/files/${encodeURIComponent(name)}`;
    },
    putRedirect(name, location) {
      files.set(name, { kind: "redirect", location });
      return `${baseUrl}/files/${encodeURIComponent(name)}`;
    },
    putEndlessFile(name, contentType, declaredBytes) {
      files.set(name, { kind: "endless", contentType, declaredBytes });
      return `${baseUrl}/files/${encodeURIComponent(name)}`;
    },
    later(ms, action) {
      const timer = setTimeout(() => {
        timers.delete(timer);
        action();
      }, ms);
      timers.add(timer);
    },
    async deliverWebhook(url, headers, body) {
      const delivery: WebhookDelivery = { url, headers, body, status: null };
      webhooks.push(delivery);
      try {
        const answer = await fetch(url, {
          method: "POST",
          headers: { "Content-Type": "application/json", ...headers },
          body,
          signal: AbortSignal.timeout(5_000),
        });
        delivery.status = answer.status;
      } catch {
        delivery.status = null;
      }
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A body longer than any cap: a declared length is held after its first chunk; without one, chunks flow while the client reads. */
function serveEndless(response: ServerResponse, contentType: string, declaredBytes: number | null) {
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  response.writeHead(200, { "Content-Type": contentType, ...(declaredBytes === null ? {} : { "Content-Length": declaredBytes }) });
  if (declaredBytes !== null) {
    response.write(chunk);
    return;
  }
  const pump = () => {
    while (!response.destroyed && response.write(chunk));
    if (!response.destroyed) response.once("drain", pump);
  };
  pump();
}

export function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = JSON.stringify(body);
  response.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text), ...headers });
  response.end(text);
}

/** Holds an answer `ms`; false when the client left first (a canceled or timed-out call). */
export function heldUntil(ms: number, response: ServerResponse): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(!response.destroyed), ms);
    response.once("close", () => {
      clearTimeout(timer);
      resolve(false);
    });
  });
}

export function sleep(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export function header(request: RecordedRequest, name: string): string | undefined {
  const value = request.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

const videoBytes = Buffer.from("000000186674797069736f6d0000020069736f6d6d703431", "hex"); // an MP4 `ftyp` box

/** A small real picture (or an MP4 header) in the given format, as the providers' files are. */
export async function sampleOutput(format: string): Promise<{ bytes: Buffer; contentType: string; extension: string }> {
  if (format === "mp4") return { bytes: videoBytes, contentType: "video/mp4", extension: "mp4" };
  const kind = format === "jpg" || format === "jpeg" ? "jpeg" : format === "webp" ? "webp" : "png";
  const bytes = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#3a6ea5" } })
    .toFormat(kind)
    .toBuffer();
  return { bytes, contentType: `image/${kind}`, extension: kind === "jpeg" ? "jpg" : kind };
}

async function readBody(incoming: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function parseJson(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
