import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/server/env";
import { ensureAuthSecret } from "@/server/runtime/secrets";
import { getStorage } from "@/server/storage/get-storage";
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
