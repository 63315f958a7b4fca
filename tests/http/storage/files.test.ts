import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/server/base/env";
import { ensureAuthSecret } from "@/server/start/secrets";
import { getStorage } from "@/server/storage/get-storage";
import { serveSignedFile } from "@/server/edge/http/serve-signed-file";
import { signFileUrl } from "@/server/storage/signed-url";
import { api, baseUrl, expectError } from "@/tests/support/http";

// GET/HEAD /files/<key> on the running app. npm test gives this process the app's DATA_DIR,
// APP_URL and storage settings, so a file placed here is the app's file, and ensureAuthSecret
// reads the secret the app generated into DATA_DIR at boot (or the AUTH_SECRET both were given).

const accountId = randomUUID();
const generationId = randomUUID();
const key = `outputs/${accountId}/${generationId}/0.png`;
const bytes = Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), randomBytes(200_000)]);
const inSeconds = (s: number) => ({ expiresAt: new Date(Date.now() + s * 1000) });
const pathOf = (url: string) => url.slice(new URL(url).origin.length);

beforeAll(async () => {
  if (!process.env.DATA_DIR) throw new Error("DATA_DIR is not set: run through `npm test`");
  resetEnvCache();
  ensureAuthSecret();
  await getStorage().put(key, bytes, "image/png");
});

afterAll(async () => {
  await getStorage().delete(key);
});

describe("GET /files/<key>", () => {
  it("serves a signed link at APP_URL with the file's bytes, type and caching", async () => {
    const url = signFileUrl(key, inSeconds(3600));
    expect(url.startsWith(`${baseUrl()}/files/${key}?expires=`)).toBe(true);
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/png");
    expect(response.headers.get("content-disposition")).toBe("inline");
    expect(response.headers.get("cache-control")).toMatch(/^private, max-age=(359[0-9]|3600)$/);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("content-length")).toBe(String(bytes.byteLength));
    expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it("answers HEAD with the length and no body", async () => {
    const response = await fetch(signFileUrl(key, inSeconds(60)), { method: "HEAD" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/png");
    expect(response.headers.get("content-length")).toBe(String(bytes.byteLength));
    expect((await response.arrayBuffer()).byteLength).toBe(0);
  });

  it("refuses an expired link with ERR1001", async () => {
    expectError(await api(pathOf(signFileUrl(key, inSeconds(-5)))), "ERR1001");
  });

  it("refuses a tampered link with ERR1001", async () => {
    const url = signFileUrl(key, inSeconds(60));
    const tampered = url.replace(/signature=([0-9a-f])/, (_m, c: string) => `signature=${c === "0" ? "1" : "0"}`);
    expectError(await api(pathOf(tampered)), "ERR1001");
    const otherKey = pathOf(url).replace("/0.png", "/1.png");
    expectError(await api(otherKey), "ERR1001");
    expectError(await api(`/files/${key}`), "ERR1001");
  });

  it("answers ERR1006 for a signed link whose file is gone", async () => {
    const gone = `outputs/${accountId}/${generationId}/7.png`;
    expectError(await api(pathOf(signFileUrl(gone, inSeconds(60)))), "ERR1006");
  });

  it("answers ERR1008 for other methods", async () => {
    const reply = await api(pathOf(signFileUrl(key, inSeconds(60))), { method: "DELETE" });
    expectError(reply, "ERR1008");
    expect(reply.headers.get("allow")).toBe("GET, HEAD");
    expect((await getStorage().head(key))?.size).toBe(bytes.byteLength);
  });
});

// Range requests (RFC 9110 §14): single byte ranges answer 206 with exactly those bytes, streamed
// from storage; a range past the end 416; anything malformed, or several ranges, the whole file.
describe("GET /files/<key> with Range", () => {
  const size = bytes.byteLength;
  const get = (range: string | null, headers: Record<string, string> = {}, method = "GET") =>
    fetch(signFileUrl(key, inSeconds(600)), { method, headers: { ...(range === null ? {} : { range }), ...headers } });

  async function expectPartial(range: string, start: number, end: number) {
    const response = await get(range);
    expect(response.status, range).toBe(206);
    expect(response.headers.get("content-range")).toBe(`bytes ${start}-${end}/${size}`);
    expect(response.headers.get("content-length")).toBe(String(end - start + 1));
    expect(response.headers.get("accept-ranges")).toBe("bytes");
    expect(response.headers.get("content-type")).toBe("image/png");
    const body = Buffer.from(await response.arrayBuffer());
    expect(body.byteLength).toBe(end - start + 1);
    expect(body.equals(bytes.subarray(start, end + 1)), range).toBe(true);
  }

  async function expectWhole(response: Response, label: string) {
    expect(response.status, label).toBe(200);
    expect(response.headers.get("content-range"), label).toBeNull();
    expect(response.headers.get("accept-ranges")).toBe("bytes");
    expect(response.headers.get("content-length")).toBe(String(size));
    expect(Buffer.from(await response.arrayBuffer()).equals(bytes), label).toBe(true);
  }

  it("advertises byte ranges on 200 answers to GET and HEAD", async () => {
    await expectWhole(await get(null), "no range");
    const head = await get(null, {}, "HEAD");
    expect(head.headers.get("accept-ranges")).toBe("bytes");
    expect(head.headers.get("etag")).toMatch(/^"[0-9a-z-]+"$/);
  });

  it("answers bytes=a-b with exactly those bytes", async () => {
    await expectPartial("bytes=0-99", 0, 99);
    await expectPartial("bytes=0-0", 0, 0);
    await expectPartial(`bytes=${size - 1}-${size - 1}`, size - 1, size - 1);
    // Across the 64 KiB read chunks.
    await expectPartial("bytes=65530-131080", 65_530, 131_080);
    // An end past the file is cut to the last byte.
    await expectPartial(`bytes=199000-${size * 10}`, 199_000, size - 1);
    // Case and spaces as RFC 9110 allows them.
    await expectPartial("Bytes = 10-19", 10, 19);
  });

  it("answers bytes=a- with the rest of the file", async () => {
    await expectPartial("bytes=1000-", 1_000, size - 1);
    await expectPartial("bytes=0-", 0, size - 1);
  });

  it("answers bytes=-n with the last n bytes, the whole file when n is larger", async () => {
    await expectPartial("bytes=-500", size - 500, size - 1);
    await expectPartial("bytes=-1", size - 1, size - 1);
    await expectPartial(`bytes=-${size + 1}`, 0, size - 1);
  });

  it("answers 416 with Content-Range bytes */size when no byte of the range exists", async () => {
    for (const range of [`bytes=${size}-`, `bytes=${size}-${size + 10}`, "bytes=-0", `bytes=${10 ** 20}-`]) {
      const response = await get(range);
      expect(response.status, range).toBe(416);
      expect(response.headers.get("content-range")).toBe(`bytes */${size}`);
      expect(response.headers.get("accept-ranges")).toBe("bytes");
      const body = (await response.json()) as { status: string; error: { code: string; type: string; details: Record<string, unknown> } };
      expect(body.status).toBe("error");
      expect(body.error).toMatchObject({ code: "ERR1013", type: "range_not_satisfiable", details: { range, size } });
    }
  });

  it("ignores a malformed Range header and sends the whole file", async () => {
    for (const range of [
      "bytes=abc",
      "bytes=5-3",
      "bytes=",
      "bytes=1-2-3",
      "bytes=-",
      "items=0-99",
      "0-99",
      "bytes=0x10-20",
      "bytes=1.5-2",
    ]) {
      await expectWhole(await get(range), range);
    }
  });

  it("sends the whole file for several ranges (no multipart/byteranges)", async () => {
    await expectWhole(await get("bytes=0-1,5-6"), "two ranges");
    await expectWhole(await get("bytes=0-99, 200-"), "two ranges with a space");
  });

  it("honours If-Range: the current ETag keeps the range, anything else gets the whole file", async () => {
    const etag = (await get(null, {}, "HEAD")).headers.get("etag")!;
    expect((await get(null)).headers.get("etag")).toBe(etag);
    const partial = await get("bytes=0-9", { "if-range": etag });
    expect(partial.status).toBe(206);
    expect(Buffer.from(await partial.arrayBuffer()).equals(bytes.subarray(0, 10))).toBe(true);
    await expectWhole(await get("bytes=0-9", { "if-range": '"something-else"' }), "other etag");
    await expectWhole(await get("bytes=0-9", { "if-range": `W/${etag}` }), "weak etag");
    await expectWhole(await get("bytes=0-9", { "if-range": new Date().toUTCString() }), "a date");
  });

  it("answers HEAD with a Range as a plain HEAD", async () => {
    const head = await get("bytes=0-99", {}, "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(String(size));
    expect(head.headers.get("content-range")).toBeNull();
    expect((await head.arrayBuffer()).byteLength).toBe(0);
  });

  it("keeps the link checks first: a Range never gets past an expired or tampered link, or a missing file", async () => {
    expectError(await api(pathOf(signFileUrl(key, inSeconds(-5))), { headers: { range: "bytes=0-9" } }), "ERR1001");
    const tampered = signFileUrl(key, inSeconds(60)).replace(
      /signature=([0-9a-f])/,
      (_m, c: string) => `signature=${c === "0" ? "1" : "0"}`,
    );
    expectError(await api(pathOf(tampered), { headers: { range: "bytes=0-9" } }), "ERR1001");
    const gone = `outputs/${accountId}/${generationId}/8.png`;
    expectError(await api(pathOf(signFileUrl(gone, inSeconds(60))), { headers: { range: "bytes=0-9" } }), "ERR1006");
  });

  it("answers the same through the Next route's handler as through the server's fast path", async () => {
    for (const [range, ifRange] of [
      ["bytes=100-199", null],
      ["bytes=-50", null],
      [`bytes=${size}-`, null],
      ["bytes=oops", null],
      ["bytes=0-9", '"other"'],
    ] as const) {
      const url = signFileUrl(key, inSeconds(600));
      const headers: Record<string, string> = { range, ...(ifRange ? { "if-range": ifRange } : {}) };
      const direct = await fetch(url, { headers });
      const routed = await serveSignedFile(new Request(url, { headers }), key);
      expect(routed.status, range).toBe(direct.status);
      for (const name of ["content-range", "content-length", "accept-ranges", "content-type", "etag"])
        expect(routed.headers.get(name), `${range} ${name}`).toBe(direct.headers.get(name));
      const [a, b] = [Buffer.from(await direct.arrayBuffer()), Buffer.from(await routed.arrayBuffer())];
      if (direct.status === 416) expect(JSON.parse(b.toString()).error).toEqual({ ...JSON.parse(a.toString()).error });
      else expect(b.equals(a), range).toBe(true);
    }
  });
});
