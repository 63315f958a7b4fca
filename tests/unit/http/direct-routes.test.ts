import { afterEach, describe, expect, it } from "vitest";
import { clearDirectRoutes, directHandler, servedDirectly } from "@/server/edge/http/direct-routes";
import { v1Operations } from "@/server/edge/http/operations";
import { decideAtEdge } from "@/server/edge/http/v1-edge";
import { acceptsGzip } from "@/server/start/serve-v1-directly";

// Which /v1 requests our HTTP server may answer through a route's own handler, without Next's
// router: the edge names the one operation path a request is for, or null (Next decides).

const modernPaths = new Set(v1Operations.map((operation) => operation.path));

function routeOf(method: string, url: string) {
  const decision = decideAtEdge(method, url);
  if ("answer" in decision) throw new Error(`answered at the edge: ${decision.answer.status}`);
  return decision.route;
}

const templateOf = (method: string, url: string) => routeOf(method, url)?.path ?? null;
const paramsOf = (url: string) => routeOf("GET", url)?.params ?? null;

describe("the edge names the operation path a request is for", () => {
  it.each([
    ["GET", "/v1/status", "/v1/status"],
    ["GET", "/v1/status/", "/v1/status"],
    ["GET", "/v1/content/0b8e3f0e-6d1f-4c39-9d3f-5c8f1a0e2b11?x=1", "/v1/content/{generation_id}"],
    ["DELETE", "/v1/content/0b8e3f0e-6d1f-4c39-9d3f-5c8f1a0e2b11", "/v1/content/{generation_id}"],
    ["HEAD", "/v1/content/abc", "/v1/content/{generation_id}"],
    // A literal segment wins over a parameter, loaded or not: "list" is never a generation id.
    ["GET", "/v1/content/list?limit=5", "/v1/content/list"],
    ["POST", "/v1/generate/image/darkroom/lumen-image", "/v1/generate/image/{model_identifier}"],
    ["POST", "/v1/generate/video/google/veo-3", "/v1/generate/video/{model_identifier}"],
    ["GET", "/v1/estimate/darkroom/lumen-image?n=2", "/v1/estimate/{model_identifier}"],
    ["POST", "/v1/content/generation/cancel/abc", "/v1/content/generation/cancel/{generation_id}"],
  ])("%s %s → %s", (method, url, template) => {
    expect(templateOf(method, url)).toBe(template);
  });

  it.each([
    // Rewrites and legacy paths stay with Next, which maps them onto the modern route.
    ["GET", "/api/v1/status"],
    ["GET", "/v1/list/image"],
    ["GET", "/v1/data/account"],
    ["GET", "/v1/health/providers"],
    ["GET", "/v1/image-generation/abc"],
    ["POST", "/v1/image-generation/darkroom/lumen-image"],
    // Encoded segments: their decoding into parameters is Next's.
    ["GET", "/v1/content/a%20b"],
    // No operation here: Next's catch-all answers ERR1006.
    ["GET", "/v1/not-a-route"],
    ["GET", "/v1/openapi.json"],
  ])("%s %s → Next", (method, url) => {
    // Null, or a legacy path (no route file registers one: withParamRenamed routes have no servedAt).
    const template = templateOf(method, url);
    expect(template === null || !modernPaths.has(template), String(template)).toBe(true);
  });
});

describe("parameters as Next passes them", () => {
  it("binds one segment per parameter and the rest to a model identifier", () => {
    expect(paramsOf("/v1/content/abc")).toEqual({ generation_id: "abc" });
    expect(routeOf("POST", "/v1/generate/image/black-forest-labs/flux/dev")?.params).toEqual({
      model_identifier: "black-forest-labs/flux/dev",
    });
    expect(paramsOf("/v1/status")).toEqual({});
  });

  it("names no route for a path of another shape", () => {
    expect(paramsOf("/v1/content")).toBeNull();
    expect(paramsOf("/v1/content/a/b")).toBeNull();
    expect(templateOf("GET", "/v1/usage")).toBe("/v1/usage");
  });
});

describe("the registry", () => {
  afterEach(() => clearDirectRoutes());

  it("serves a method only once its route file registered it", async () => {
    expect(directHandler("/v1/status", "GET")).toBeUndefined();
    const GET = async () => new Response("ok");
    const handlers = servedDirectly("/v1/status", { GET });
    expect(handlers.GET).toBe(GET);
    expect(directHandler("/v1/status", "GET")).toBe(GET);
    expect(directHandler("/v1/status", "POST")).toBeUndefined();
  });
});

describe("Accept-Encoding", () => {
  it.each([
    ["gzip", true],
    ["gzip, deflate, br", true],
    ["br;q=1.0, gzip;q=0.8", true],
    ["*", true],
    [undefined, false],
    ["identity", false],
    ["br", false],
    ["gzip;q=0", false],
    ["gzip;q=0, *", false],
    ["*;q=0", false],
  ])("%s → %s", (header, accepted) => {
    expect(acceptsGzip(header)).toBe(accepted);
  });
});
