import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { accountWithKey } from "@/tests/support/fixtures";
import { contentType, methods, randomPath, raw, smallBody, type RawReply } from "@/tests/support/hostile-requests";

// The edge in front of Next: whatever arrives on /v1 is answered in the envelope, never in Next's
// own shape and never with a 5xx. Raw HTTP (fetch refuses TRACE and rewrites odd paths); the
// arbitraries are shared with the R4 drill (tests/reliability/r4-hostile-input.test.ts).

function expectEnvelope(reply: RawReply, status: number, code?: string) {
  expect(reply.status, reply.text).toBe(status);
  expect(reply.headers["content-type"]).toContain("application/json");
  const body = JSON.parse(reply.text) as {
    status: string;
    request_id: string;
    error?: { code: string; type: string; retryable: boolean; details: Record<string, unknown> };
  };
  expect(body.request_id).toBe(reply.headers["x-request-id"]);
  if (code) expect(body.error?.code).toBe(code);
  return body;
}

describe("the edge, row by row", () => {
  it.each(["/v1/content/%zz", "/v1/%ff%fe", "/v1/%ED%A0%80", "/api/v1/status/%E0%A4%A"])(
    "malformed percent-encoding %s is 400 ERR1001",
    async (path) => {
      expectEnvelope(await raw("GET", path), 400, "ERR1001");
    },
  );

  it.each(["TRACE", "PROPFIND", "PURGE", "MKCOL", "SEARCH", "REPORT"])("%s /v1/status is 405 ERR1008 with Allow: GET", async (method) => {
    const reply = await raw(method, "/v1/status");
    expectEnvelope(reply, 405, "ERR1008");
    expect(reply.headers.allow).toBe("GET");
  });

  it("OPTIONS answers an envelope whose Allow lists the operation's methods, never a 204", async () => {
    const status = await raw("OPTIONS", "/v1/status");
    expect(expectEnvelope(status, 200)).toMatchObject({ status: "success", data: { allowed_methods: ["GET"] } });
    expect(status.headers.allow).toBe("GET");
    expect((await raw("OPTIONS", "/v1/content/0b8e3f0e-6d1f-4c39-9d3f-5c8f1a0e2b11")).headers.allow).toBe("GET, DELETE");
    expect((await raw("OPTIONS", "/v1/content/list")).headers.allow).toBe("GET");
    expect((await raw("OPTIONS", "/v1/image-generation/anything")).headers.allow).toBe("GET, POST");
    expect((await raw("OPTIONS", "/api/v1/generate/video/google/veo-3")).headers.allow).toBe("POST");
  });

  it.each(["/v1", "/v1/", "/api/v1", "/api/v1/"])("GET %s is 404 ERR1006 pointing at the OpenAPI document", async (path) => {
    const body = expectEnvelope(await raw("GET", path), 404, "ERR1006");
    expect(body.error?.details.openapi).toBe("/v1/openapi.json");
  });

  it("POST /v1 as multipart/form-data is an envelope, not a Server Action", async () => {
    const body = "--x\r\ncontent-disposition: form-data; name=a\r\n\r\n1\r\n--x--\r\n";
    expectEnvelope(await raw("POST", "/v1", { headers: { "content-type": "multipart/form-data; boundary=x" }, body }), 404, "ERR1006");
    const onRoute = await raw("POST", "/v1/generate/image/darkroom/lumen-image", {
      headers: { "content-type": "multipart/form-data; boundary=x", "next-action": "abc" },
      body,
    });
    expectEnvelope(onRoute, 401, "ERR1002");
  });

  it.each(["text/plain", "application/xml", "application/json; charset=utf-16"])(
    "a %s body on /v1 and /api/v1 is 415 ERR1015, a client error",
    async (type) => {
      const { key } = await accountWithKey();
      for (const path of ["/v1/generate/image/darkroom/lumen-image", "/api/v1/generate/image/darkroom/lumen-image"]) {
        const body = expectEnvelope(
          await raw("POST", path, { headers: { authorization: `Bearer ${key}`, "content-type": type }, body: '{"generation_prompt":"x"}' }),
          415,
          "ERR1015",
        );
        expect(body.error).toMatchObject({ type: "unsupported_media_type", retryable: false });
      }
    },
  );

  it("HEAD answers like GET without a body", async () => {
    const { key } = await accountWithKey();
    const get = await raw("GET", "/v1/status", { headers: { authorization: `Bearer ${key}` } });
    const head = await raw("HEAD", "/v1/status", { headers: { authorization: `Bearer ${key}` } });
    expect(head.status).toBe(get.status);
    expect(head.headers["content-type"]).toBe(get.headers["content-type"]);
    expect(head.text).toBe("");
    expect((await raw("HEAD", "/v1/nothing-here")).status).toBe(404);
  });

  it("headers past Node's size limit: 400 ERR1001 in the envelope, and no body for a HEAD (R4 regression)", async () => {
    const path = `/v1/generate/image/${"%F0%9F%A7%AA".repeat(1_600)}`;
    expectEnvelope(await raw("GET", path), 400, "ERR1001");
    const head = await raw("HEAD", path);
    expect(head.status).toBe(400);
    expect(head.text).toBe("");
  });

  it("a trailing slash is served as the path without it, in the envelope, never Next's 308 (R4 regression)", async () => {
    const { key } = await accountWithKey();
    expect(expectEnvelope(await raw("GET", "/v1/status/", { headers: { authorization: `Bearer ${key}` } }), 200)).toMatchObject({
      status: "success",
    });
    expectEnvelope(await raw("GET", "/api/v1/status//?x=1"), 401, "ERR1002");
    expectEnvelope(await raw("PATCH", "/api/v1/content/"), 404, "ERR1006");
  });

  it("an unknown method on an unknown path is 404 ERR1006", async () => {
    expectEnvelope(await raw("MKCOL", "/v1/nothing/here"), 404, "ERR1006");
  });
});

// Random requests against the built app: whatever the path, method, headers and body, no answer is
// a 5xx and every /v1 answer (but HEAD's) is the JSON envelope with its request id.
describe("the edge, property-based", () => {
  it("never answers a 5xx, and every /v1 answer is an envelope", async () => {
    const { key } = await accountWithKey();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...methods),
        randomPath,
        contentType,
        smallBody,
        fc.boolean(),
        fc.boolean(),
        async (method, target, type, payload, withKey, withAction) => {
          const headers: Record<string, string> = {};
          if (type) headers["content-type"] = type;
          if (withKey) headers.authorization = `Bearer ${key}`;
          if (withAction) headers["next-action"] = "0123456789abcdef";
          const sendsBody = payload !== null && method !== "GET" && method !== "HEAD";
          const reply = await raw(method, target, { headers, ...(sendsBody ? { body: payload } : {}) });
          expect(reply.status, `${method} ${target}: ${reply.text.slice(0, 200)}`).toBeLessThan(500);
          if (method === "HEAD") return;
          expect(reply.headers["content-type"], `${method} ${target}`).toContain("application/json");
          const envelope = JSON.parse(reply.text) as { status: string; request_id: string };
          expect(["success", "error"]).toContain(envelope.status);
          expect(envelope.request_id).toBe(reply.headers["x-request-id"]);
        },
      ),
      { seed: 20261124, numRuns: 300 },
    );
  });
});
