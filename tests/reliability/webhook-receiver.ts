import http from "node:http";
import type { AddressInfo } from "node:net";
import { createHmac, timingSafeEqual } from "node:crypto";

// The drills' webhook receiver: a plain HTTP server on 127.0.0.1 that does what docs/webhooks.md
// asks of a receiver. It verifies `X-Service-Signature` over the raw body exactly as docs/webhooks.md's
// snippet does (its own copy, not the service's verifySignature), answers 500 to a share of the
// POSTs at random (seeded, so a run can be repeated), can answer slowly, and de-duplicates by
// `webhook_delivery_id`: what counts is the set of distinct deliveries it accepted.

const TERMINAL_EVENTS = new Set(["generation.completed", "generation.failed", "generation.canceled"]);

export type ReceiverOptions = {
  /** Share of signed POSTs answered 500, drawn per POST. */
  failRate?: number;
  /**
   * At most this many 500s per delivery id: a delivery has five attempts, and the drills are about
   * losing or doubling events, not about exhausting the retries of one (then an operator re-sends it).
   */
  maxFailuresPerDelivery?: number;
  /** Milliseconds before answering each POST (setDelay changes it). */
  delayMs?: number;
  seed?: number;
};

/** One delivery as the receiver saw it: accepted at least once, or only failed so far. */
export type ReceivedDelivery = {
  deliveryId: string;
  endpoint: string;
  event: string;
  generationId: string | null;
  status: string | null;
  accepted: number;
  failed: number;
};

export type WebhookReceiver = {
  start(): Promise<void>;
  close(): Promise<void>;
  /** The URL of endpoint `name` (its path); register it with the service, then give its secret to `trust`. */
  url(name: string): string;
  trust(name: string, secret: string): void;
  setDelay(ms: number): void;
  deliveries(): ReceivedDelivery[];
  /** For each generation and endpoint, the distinct terminal deliveries accepted. */
  terminalDeliveries(): Map<string, ReceivedDelivery[]>;
  counts(): { posts: number; answered500: number; badSignatures: number; accepted: number; repeatedAccepts: number };
};

/** The verifier of docs/webhooks.md, verbatim in substance: t within 300 s, HMAC-SHA256 of `${t}.${rawBody}` keyed by the secret. */
export function verifyDarkroomSignature(header: string, secret: string, rawBody: string, toleranceSeconds = 300): boolean {
  const parts = Object.fromEntries(header.split(",").map((part) => part.trim().split("=", 2)));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || Math.abs(Date.now() / 1000 - t) > toleranceSeconds) return false;
  const expected = createHmac("sha256", secret).update(`${t}.${rawBody}`).digest();
  const given = Buffer.from(parts.v1 ?? "", "hex");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** mulberry32: a small seeded PRNG, enough for coin flips. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function webhookReceiver(options: ReceiverOptions = {}): WebhookReceiver {
  const { failRate = 0, maxFailuresPerDelivery = 2, seed = 1 } = options;
  let delayMs = options.delayMs ?? 0;
  const random = seededRandom(seed);
  const secrets = new Map<string, string>();
  const seen = new Map<string, ReceivedDelivery>();
  const totals = { posts: 0, answered500: 0, badSignatures: 0, accepted: 0, repeatedAccepts: 0 };
  let server: http.Server | null = null;
  let port = 0;

  async function handle(request: http.IncomingMessage, response: http.ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const rawBody = Buffer.concat(chunks).toString("utf8");
    totals.posts += 1;
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));

    const endpoint = (request.url ?? "").replace(/^\//, "");
    const secret = secrets.get(endpoint);
    const header = request.headers["x-service-signature"];
    if (request.method !== "POST" || !secret || typeof header !== "string" || !verifyDarkroomSignature(header, secret, rawBody)) {
      totals.badSignatures += 1;
      response.writeHead(400).end("bad signature");
      return;
    }
    const body = JSON.parse(rawBody) as {
      webhook_event: string;
      webhook_delivery_id: string;
      webhook_data: { generation_id?: string; generation_status?: string };
    };
    const deliveryId = body.webhook_delivery_id;
    const known = seen.get(deliveryId) ?? {
      deliveryId,
      endpoint,
      event: body.webhook_event,
      generationId: body.webhook_data.generation_id ?? null,
      status: body.webhook_data.generation_status ?? null,
      accepted: 0,
      failed: 0,
    };
    seen.set(deliveryId, known);
    if (known.accepted === 0 && known.failed < maxFailuresPerDelivery && random() < failRate) {
      known.failed += 1;
      totals.answered500 += 1;
      response.writeHead(500).end("receiver failure (drill)");
      return;
    }
    known.accepted += 1;
    totals.accepted += 1;
    if (known.accepted > 1) totals.repeatedAccepts += 1;
    response.writeHead(204).end();
  }

  return {
    async start() {
      server = http.createServer((request, response) => {
        handle(request, response).catch(() => response.writeHead(400).end());
      });
      await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
      port = (server.address() as AddressInfo).port;
    },
    async close() {
      server?.closeAllConnections();
      await new Promise((resolve) => server?.close(resolve));
    },
    url: (name) => `http://127.0.0.1:${port}/${name}`,
    trust: (name, secret) => void secrets.set(name, secret),
    setDelay: (ms) => void (delayMs = ms),
    deliveries: () => [...seen.values()],
    terminalDeliveries() {
      const byGeneration = new Map<string, ReceivedDelivery[]>();
      for (const delivery of seen.values()) {
        if (delivery.accepted === 0 || !TERMINAL_EVENTS.has(delivery.event) || !delivery.generationId) continue;
        const key = `${delivery.generationId} ${delivery.endpoint}`;
        byGeneration.set(key, [...(byGeneration.get(key) ?? []), delivery]);
      }
      return byGeneration;
    },
    counts: () => ({ ...totals }),
  };
}
