import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/server/base/env";
import { localDiskStorage } from "@/server/storage/local-disk";
import { serveSignedFile } from "@/server/edge/http/serve-signed-file";
import { signFileUrl } from "@/server/storage/signed-url";
import type { OutputStorage } from "@/server/storage/storage";

// The /files/<key> handler without the app: signature first, then the object, streamed.

const saved = { AUTH_SECRET: process.env.AUTH_SECRET, APP_URL: process.env.APP_URL };
let root: string;
let storage: OutputStorage;
const key = "outputs/acc/gen/0.png";
const png = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10, 1, 2, 3]);

beforeAll(async () => {
  process.env.AUTH_SECRET = "serve-signed-file-secret";
  process.env.APP_URL = "http://files.test";
  resetEnvCache();
  root = await mkdtemp(path.join(tmpdir(), "darkroom-serve-"));
  storage = localDiskStorage(path.join(root, "files"));
  await storage.put(key, png, "image/png");
});

afterAll(async () => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetEnvCache();
  await rm(root, { recursive: true, force: true });
});

const serve = (url: string, method = "GET", fileKey = key) => serveSignedFile(new Request(url, { method }), fileKey, storage);
const inSeconds = (s: number) => ({ expiresAt: new Date(Date.now() + s * 1000) });

describe("serveSignedFile", () => {
  it("streams the object with its type, length, private caching for the time left and inline disposition", async () => {
    const response = await serve(signFileUrl(key, inSeconds(600)));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/png");
    expect(response.headers.get("content-length")).toBe(String(png.byteLength));
    expect(response.headers.get("cache-control")).toMatch(/^private, max-age=(599|600)$/);
    expect(response.headers.get("content-disposition")).toBe("inline");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("content-security-policy")).toBe("sandbox");
    expect(Buffer.from(await response.arrayBuffer()).equals(png)).toBe(true);
  });

  it("answers HEAD with the headers and no body", async () => {
    const response = await serve(signFileUrl(key, inSeconds(60)), "HEAD");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-length")).toBe(String(png.byteLength));
    expect(response.body).toBeNull();
  });

  it.each([
    ["an expired link", () => signFileUrl(key, inSeconds(-1))],
    [
      "a tampered signature",
      () => signFileUrl(key, inSeconds(60)).replace(/signature=(.)/, (_m, c: string) => `signature=${c === "a" ? "b" : "a"}`),
    ],
    [
      "a pushed-out expiry",
      () => signFileUrl(key, inSeconds(60)).replace(/expires=(\d+)/, (_m, e: string) => `expires=${Number(e) + 86_400}`),
    ],
    ["no signature", () => signFileUrl(key, inSeconds(60)).replace(/&signature=.*$/, "")],
    ["no query", () => signFileUrl(key, inSeconds(60)).replace(/\?.*$/, "")],
  ])("refuses %s with ERR1001", async (_label, makeUrl) => {
    for (const method of ["GET", "HEAD"]) {
      const response = await serve(makeUrl(), method);
      expect(response.status).toBe(400);
      expect(response.headers.get("cache-control")).toBe("no-store");
      if (method === "GET") {
        const body = await response.json();
        expect(body).toMatchObject({ status: "error", error: { code: "ERR1001", type: "invalid_request", retryable: false } });
        expect(body.request_id).toBe(response.headers.get("x-request-id"));
      }
    }
  });

  it("refuses a link signed for another key", async () => {
    const response = await serve(signFileUrl("outputs/acc/gen/1.png", inSeconds(60)), "GET", key);
    expect(response.status).toBe(400);
  });

  it("answers ERR1006 for a signed link whose object is gone", async () => {
    const gone = "outputs/acc/gen/9.png";
    const response = await serve(signFileUrl(gone, inSeconds(60)), "GET", gone);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ status: "error", error: { code: "ERR1006", type: "not_found" } });
    expect((await serve(signFileUrl(gone, inSeconds(60)), "HEAD", gone)).status).toBe(404);
  });
});
