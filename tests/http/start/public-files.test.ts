import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { exampleManifest } from "@/server/catalog/examples/model-example";
import { baseUrl } from "@/tests/support/http";

// public/ through the built server (the HTTP server in front of Next): robots.txt and the example
// outputs, byte for byte, with their content types, cache headers and the no-run policy of
// answers that are not pages; a range request of a clip, as a video element makes.

const publicDir = path.resolve(import.meta.dirname, "../../../public");
const get = (servedPath: string, init: RequestInit = {}) => fetch(`${baseUrl()}${servedPath}`, { redirect: "manual", ...init });

describe("robots.txt", () => {
  it("is served as text, lets crawlers read the public pages and keeps them out of the dashboard and the API", async () => {
    const response = await get("/robots.txt");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(response.headers.get("cache-control")).toBe("public, max-age=3600");
    expect(response.headers.get("content-security-policy")).toContain("default-src 'none'");
    const text = await response.text();
    expect(text).toBe(readFileSync(path.join(publicDir, "robots.txt"), "utf8"));
    const rules = text
      .split("\n")
      .filter((line) => /^(Allow|Disallow):/.test(line))
      .map((line) => line.trim());
    expect(text).toMatch(/^User-agent: \*$/m);
    for (const rule of ["Allow: /$", "Allow: /legal/", "Disallow: /dashboard", "Disallow: /api/", "Disallow: /v1", "Disallow: /files/"])
      expect(rules).toContain(rule);
  });

  it("allows what it says: the legal pages answer without a session, the dashboard does not", async () => {
    expect((await get("/legal/terms")).status).toBe(200);
    expect((await get("/dashboard")).status).not.toBe(200);
  });
});

describe("example outputs", () => {
  const [still] = Object.values(exampleManifest.families);
  const clip = Object.values(exampleManifest.families).find((example) => example.clip)?.clip;

  it("a still is served as image/webp, byte for byte, cacheable for a week, with no page policy", async () => {
    const response = await get(`${still!.image.path}?v=${still!.image.sha256}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/webp");
    expect(response.headers.get("cache-control")).toBe("public, max-age=604800, stale-while-revalidate=86400");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(response.headers.get("content-security-policy")).not.toContain("nonce-");
    expect(Buffer.from(await response.arrayBuffer()).equals(readFileSync(path.join(publicDir, still!.image.path)))).toBe(true);
  });

  it("a clip is served as video/mp4 and answers a range request with 206", async () => {
    const whole = await get(clip!.path);
    expect(whole.status).toBe(200);
    expect(whole.headers.get("content-type")).toBe("video/mp4");
    expect(Number(whole.headers.get("content-length"))).toBe(clip!.bytes);
    await whole.arrayBuffer();
    const part = await get(clip!.path, { headers: { range: "bytes=0-99" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 0-99/${clip!.bytes}`);
    expect((await part.arrayBuffer()).byteLength).toBe(100);
  });

  it("an unknown example is a 404, not a page of the app", async () => {
    const response = await get("/examples/no-such-family.webp");
    expect(response.status).toBe(404);
    expect(response.headers.get("content-security-policy")).toContain("default-src 'none'");
  });
});
