import { newRequestId } from "@/server/edge/http/envelope";
import { methodNotAllowed } from "@/server/edge/http/v1-route";
import { buildOpenApiDocument, openApiServers, type OpenApiDocument } from "@/server/edge/http/openapi/build-document";

// The OpenAPI document, public (no API key): built once per process; only `servers` follows the
// address the request came in on, so each regional host describes itself.

export const dynamic = "force-dynamic";

let document: OpenApiDocument | undefined;

// The Host header as the client sent it: Next's request.url turns 127.0.0.1 into localhost.
function originOf(request: Request): string {
  const url = new URL(request.url);
  const host = request.headers.get("host");
  return `${url.protocol}//${host && /^[A-Za-z0-9.:[\]-]+$/.test(host) ? host : url.host}`;
}

export async function GET(request: Request) {
  const origin = originOf(request);
  document ??= buildOpenApiDocument({ serverUrl: origin });
  return new Response(JSON.stringify({ ...document, servers: openApiServers(origin) }), {
    status: 200,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "public, max-age=60", "x-request-id": newRequestId() },
  });
}

export const POST = methodNotAllowed(["GET"]);
export { POST as PUT, POST as PATCH, POST as DELETE };
