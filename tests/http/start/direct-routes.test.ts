import http from "node:http";
import { describe, expect, it } from "vitest";
import { v1Operations } from "@/server/edge/http/operations";
import { accountWithKey } from "@/tests/support/fixtures";
import { createImage, seedFinishedImage } from "@/tests/support/generations";
import { raw, type RawReply } from "@/tests/support/hostile-requests";
import { baseUrl } from "@/tests/support/http";

// Once Next has loaded a /v1 route, our HTTP server answers it through the route's own handler
// without Next's router (server/start/serve-v1-directly.ts). The same route under /api/v1 is a
// Next rewrite and always goes through Next, so each route is compared with itself: the same
// status, headers and envelope either way. Next marks its answers with `Vary: rsc, …`; a direct
// answer varies on Accept-Encoding alone, which is how these tests know which path answered.

const servedByNext = (reply: RawReply) => String(reply.headers.vary ?? "").includes("rsc");

/** The envelope's fields and its data's fields, not their values (which some routes recount per call). */
function fieldsOf(body: unknown) {
  const envelope = body as Record<string, unknown>;
  const data = envelope.data && typeof envelope.data === "object" ? Object.keys(envelope.data).sort() : [];
  return { envelope: Object.keys(envelope).sort(), data };
}

/** An answer without what differs between any two requests. */
function comparable(reply: RawReply) {
  const body = JSON.parse(reply.text) as Record<string, unknown>;
  delete body.request_id;
  delete body.timestamp;
  const data = body.data as Record<string, unknown> | undefined;
  if (data && typeof data === "object") delete data.apikey_last_used_at;
  const headers = Object.fromEntries(
    ["content-type", "cache-control", "x-ratelimit-limit", "allow", "retry-after"]
      .filter((name) => reply.headers[name] !== undefined)
      .map((name) => [name, reply.headers[name]]),
  );
  return { status: reply.status, headers, body };
}

async function directAndNext(method: string, path: string, headers: Record<string, string>, body?: string) {
  await raw(method, path, { headers, body }); // the first request of a route may be Next's (it loads the file)
  const direct = await raw(method, path, { headers, body });
  const viaNext = await raw(method, `/api${path}`, { headers, body });
  return { direct, viaNext };
}

describe("/v1 routes answered without Next's router", () => {
  it("every modern GET route answers directly, as Next does", async () => {
    const { key, accountId } = await accountWithKey({ plan: "enterprise" });
    const generation = await seedFinishedImage(accountId);
    const concrete = (path: string) => path.replace("{generation_id}", generation.id).replace("{model_identifier}", "darkroom/lumen-image");
    const gets = v1Operations.filter((operation) => operation.method === "GET");
    expect(gets.length).toBeGreaterThan(10);
    for (const operation of gets) {
      const path = concrete(operation.path);
      const { direct, viaNext } = await directAndNext("GET", path, { authorization: `Bearer ${key}` });
      expect(servedByNext(direct), `${path} was not answered directly`).toBe(false);
      expect(servedByNext(viaNext)).toBe(true);
      expect(direct.headers["content-length"]).toBe(String(Buffer.byteLength(direct.text)));
      const [one, other] = [comparable(direct), comparable(viaNext)];
      expect({ ...one, body: fieldsOf(one.body) }, path).toEqual({ ...other, body: fieldsOf(other.body) });
      // Health checks time themselves; usage counts the requests just made (logged in batches, so
      // its lists and figures grow between two calls).
      if (!path.startsWith("/v1/health") && path !== "/v1/usage") expect(one.body, path).toEqual(other.body);
    }
  });

  it("errors, HEAD and method refusals come out the same", async () => {
    const { key } = await accountWithKey();
    for (const [method, path, headers] of [
      ["GET", "/v1/status", {}],
      ["GET", "/v1/status", { authorization: "Bearer dkr_not-a-key" }],
      ["GET", "/v1/content/00000000-0000-4000-8000-000000000000", { authorization: `Bearer ${key}` }],
      ["GET", "/v1/content/list?limit=0", { authorization: `Bearer ${key}` }],
    ] as const) {
      const { direct, viaNext } = await directAndNext(method, path, headers);
      expect(servedByNext(direct)).toBe(false);
      expect(comparable(direct), `${method} ${path}`).toEqual(comparable(viaNext));
    }
    const head = await raw("HEAD", "/v1/status", { headers: { authorization: `Bearer ${key}` } });
    expect(servedByNext(head)).toBe(false);
    expect(head.status).toBe(200);
    expect(head.text).toBe("");
    expect(Number(head.headers["content-length"])).toBeGreaterThan(0);
  });

  it("a create's body reaches the handler as a stream, bad or good", async () => {
    const { key } = await accountWithKey({ plan: "enterprise" });
    await createImage(key, { generation_prompt: "warm-up", generation_provider_order: "local" });
    const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
    const created = await raw("POST", "/v1/generate/image/darkroom/lumen-image", {
      headers,
      body: JSON.stringify({ generation_prompt: "a lighthouse", generation_provider_order: "local" }),
    });
    expect(servedByNext(created)).toBe(false);
    expect(created.status).toBe(202);
    expect((JSON.parse(created.text) as { data: { generation_id: string } }).data.generation_id).toMatch(/^[0-9a-f-]{36}$/);

    const { direct, viaNext } = await directAndNext("POST", "/v1/generate/image/darkroom/lumen-image", headers, "{not json");
    expect(servedByNext(direct)).toBe(false);
    expect(comparable(direct)).toEqual(comparable(viaNext));
    expect(comparable(direct).body).toMatchObject({ status: "error", error: { code: "ERR1001" } });
  });

  it("gzips a large answer for a client that accepts it, and only then", async () => {
    const { key, accountId } = await accountWithKey({ plan: "enterprise" });
    for (let index = 0; index < 5; index += 1) await seedFinishedImage(accountId);
    const authorization = `Bearer ${key}`;
    await raw("GET", "/v1/content/list", { headers: { authorization } });
    const plain = await raw("GET", "/v1/content/list", { headers: { authorization } });
    const gzipped = await raw("GET", "/v1/content/list", { headers: { authorization, "accept-encoding": "gzip, deflate" } });
    const refused = await raw("GET", "/v1/content/list", { headers: { authorization, "accept-encoding": "gzip;q=0, identity" } });
    expect(Buffer.byteLength(plain.text)).toBeGreaterThan(1024);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(refused.headers["content-encoding"]).toBeUndefined();
    expect(gzipped.headers["content-encoding"]).toBe("gzip");
    expect(Number(gzipped.headers["content-length"])).toBeLessThan(Buffer.byteLength(plain.text));
    expect(gzipped.headers.vary).toBe("Accept-Encoding");
    const total = (reply: RawReply) => (JSON.parse(reply.text) as { total: number }).total;
    expect(total(gzipped)).toBe(5);
    expect(total(plain)).toBe(5);
  });

  it("a body refused unread does not stall its keep-alive connection", async () => {
    const { key } = await accountWithKey({ plan: "enterprise" });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const { hostname, port } = new URL(baseUrl());
    const send = (method: string, path: string, options: { body?: string; chunked?: boolean } = {}) =>
      new Promise<{ status: number; text: string }>((resolve, reject) => {
        const headers: Record<string, string> = { authorization: `Bearer ${key}`, "content-type": "application/json" };
        if (options.body !== undefined && !options.chunked) headers["content-length"] = String(Buffer.byteLength(options.body));
        const request = http.request({ agent, hostname, port, method, path, headers, timeout: 10_000 }, (response) => {
          let text = "";
          response.on("data", (chunk: Buffer) => (text += chunk.toString()));
          response.on("end", () => resolve({ status: response.statusCode ?? 0, text }));
        });
        request.on("timeout", () => request.destroy(new Error(`${method} ${path}: no answer in 10 s`)));
        request.on("error", reject);
        request.end(options.body);
      });
    const create = "/v1/generate/image/darkroom/lumen-image";
    await send("GET", "/v1/status");
    await send("POST", create, { body: "{}" });
    const oversized = JSON.stringify({ generation_prompt: "x".repeat(300 * 1024) });
    // Refused from its Content-Length before a byte is read, then as it streams in past the limit.
    for (const chunked of [false, true]) {
      const refused = await send("POST", create, { body: oversized, chunked });
      expect(refused.status).toBe(413);
      expect(JSON.parse(refused.text)).toMatchObject({ error: { code: "ERR1011" } });
      expect((await send("GET", "/v1/status")).status).toBe(200);
    }
    agent.destroy();
  });
});
