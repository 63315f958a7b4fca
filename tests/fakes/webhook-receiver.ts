import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

// A tiny stand-in for our /api/providers/{id}/callback route: it takes whatever a fake provider
// POSTs, answers 200, and hands the headers and raw body to the test.

export type CapturedWebhook = { path: string; headers: Headers; rawBody: string };

export type WebhookReceiver = {
  url: string;
  received: CapturedWebhook[];
  /** The first delivery not taken yet (matching `where`, when given), waiting for it to arrive. */
  next(where?: (webhook: CapturedWebhook) => boolean, timeoutMs?: number): Promise<CapturedWebhook>;
  close(): Promise<void>;
};

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: CapturedWebhook[] = [];
  const taken = new Set<CapturedWebhook>();
  const waiters: Array<() => void> = [];

  const server = createServer((incoming, response) => {
    void readBody(incoming).then((rawBody) => {
      const headers = new Headers();
      for (const [name, value] of Object.entries(incoming.headers)) {
        if (typeof value === "string") headers.set(name, value);
        else if (Array.isArray(value)) for (const item of value) headers.append(name, item);
      }
      received.push({ path: incoming.url ?? "/", headers, rawBody });
      response.writeHead(200, { "Content-Type": "application/json" }).end("{}");
      for (const wake of waiters.splice(0)) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/providers/callback`;

  return {
    url,
    received,
    async next(where = () => true, timeoutMs = 5_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = received.find((webhook) => !taken.has(webhook) && where(webhook));
        if (found) {
          taken.add(found);
          return found;
        }
        if (Date.now() > deadline) throw new Error("no matching webhook arrived in time");
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 50);
        });
      }
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function readBody(incoming: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}
