import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendProviderRequest } from "@/server/providers/http-errors";
import { providerErrorOf } from "@/tests/fakes/expect-provider-error";

// The provider APIs' transport (server/providers/provider-http.ts) against a real node:http
// server: what the adapters' tests do not reach (connection reuse, an answer cut short, a server
// that never answers).

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;
let handler: Handler = (_req, res) => res.end();
const connections: string[] = [];
const server = http.createServer((req, res) => handler(req, res));
server.on("connection", (socket) => connections.push(`${socket.remotePort}`));
let base = "";

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe("sendProviderRequest over node:http", () => {
  it("sends the method, headers and body; answers with the status, the headers and the parsed JSON; reuses the connection", async () => {
    const seen: Array<{ method?: string; auth?: string; type?: string; length?: string; body: string }> = [];
    handler = (req, res) => {
      let body = "";
      req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
      req.on("end", () => {
        seen.push({
          method: req.method,
          auth: req.headers.authorization,
          type: req.headers["content-type"],
          length: req.headers["content-length"],
          body,
        });
        res.writeHead(201, { "content-type": "application/json", "retry-after": "3", "x-multi": ["a", "b"] });
        res.end(JSON.stringify({ id: "p-1", status: "succeeded" }));
      });
    };
    const before = connections.length;
    const request = {
      method: "POST",
      headers: { Authorization: "Bearer r8_x", "Content-Type": "application/json" },
      body: JSON.stringify({ input: { prompt: "é" } }),
    };
    const first = await sendProviderRequest("replicate", `${base}/v1/predictions`, request, 2_000);
    const second = await sendProviderRequest("replicate", `${base}/v1/predictions`, request, 2_000);
    expect(first).toMatchObject({ status: 201, ok: true, body: { id: "p-1", status: "succeeded" } });
    expect(first.headers.get("retry-after")).toBe("3");
    expect(first.headers.get("x-multi")).toBe("a, b");
    expect(second.status).toBe(201);
    expect(seen[0]).toEqual({
      method: "POST",
      auth: "Bearer r8_x",
      type: "application/json",
      length: String(Buffer.byteLength(request.body)),
      body: request.body,
    });
    expect(connections.length - before).toBe(1);
  });

  it("a non-2xx answer is an answer (ok false, text kept when it is not JSON)", async () => {
    handler = (_req, res) => {
      res.writeHead(503, { "content-type": "text/plain" });
      res.end("down for maintenance");
    };
    expect(await sendProviderRequest("fal", `${base}/x`, { method: "GET" }, 2_000)).toMatchObject({
      status: 503,
      ok: false,
      body: "down for maintenance",
    });
  });

  it("an answer cut short is ERR4002; no answer within the deadline is ERR4001", async () => {
    handler = (_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": "1000" });
      res.write('{"id":');
      setTimeout(() => res.socket?.destroy(), 20);
    };
    expect(await providerErrorOf(sendProviderRequest("openai", `${base}/cut`, { method: "GET" }, 2_000))).toMatchObject({
      code: "ERR4002",
      providerDetail: "ECONNRESET",
    });

    handler = () => undefined;
    expect(await providerErrorOf(sendProviderRequest("openai", `${base}/silent`, { method: "POST", body: "{}" }, 150))).toMatchObject({
      code: "ERR4001",
      providerDetail: "timeout 150ms",
    });
  });

  it("an answer past the request's maxAnswerBytes is ERR4003; an aborted signal ends the call at once", async () => {
    handler = (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ image: "a".repeat(4_096) }));
    };
    expect(
      await providerErrorOf(sendProviderRequest("cloudflare", `${base}/big`, { method: "POST", body: "{}", maxAnswerBytes: 1_024 }, 2_000)),
    ).toMatchObject({
      code: "ERR4003",
      providerDetail: "too_large",
    });
    await expect(
      sendProviderRequest("cloudflare", `${base}/big`, { method: "POST", body: "{}", maxAnswerBytes: 8_192 }, 2_000),
    ).resolves.toMatchObject({ status: 200 });

    handler = () => undefined;
    const controller = new AbortController();
    const call = providerErrorOf(
      sendProviderRequest("cloudflare", `${base}/held`, { method: "POST", body: "{}", signal: controller.signal }, 10_000),
    );
    setTimeout(() => controller.abort(), 50);
    // Mapped like a deadline; the adapter that aborted (a cancel) knows better and answers canceled.
    expect(await call).toMatchObject({ code: "ERR4001", provider: "cloudflare" });
    expect(controller.signal.aborted).toBe(true);
  });
});
