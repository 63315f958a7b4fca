import type { IncomingHttpHeaders } from "node:http";
import { ApiError } from "../../base/error-table";
import { errorBody, newRequestId, successBody } from "./envelope";
import { downloadOperations, streamOperations, v1Operations } from "./operations/index";

// The edge in front of Next for /v1 and /api/v1: what Next would refuse before a route handler
// runs (malformed percent-encoding, methods it does not know, OPTIONS, the bare /v1) is answered
// here, in the envelope, from the operation registry. Everything else goes on to Next untouched.

export type EdgeAnswer = { status: number; headers: Record<string, string>; body: string };
/** A request's operation path (`/v1/content/{generation_id}`) and its parameters, as Next passes them. */
export type MatchedRoute = { path: string; params: Record<string, string> };
/**
 * Passed on: to the handler registered for `route` when there is one (direct-routes.ts), else to
 * Next. `route` is the one operation path that serves this method at this path, or null.
 */
export type EdgeDecision = { answer: EdgeAnswer } | { pass: true; headAsGet: boolean; route: MatchedRoute | null };

/** Methods Next's route handlers serve; anything else never reaches Next. */
const NEXT_METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE"]);
/** The public document beside the operations. */
const DOCUMENT_PATH = "/v1/openapi.json";

type Template = { path: string; segments: string[]; methods: Set<string> };

function templatesFromRegistry(): Template[] {
  const byPath = new Map<string, Set<string>>([[DOCUMENT_PATH, new Set(["GET"])]]);
  for (const operation of [...v1Operations, ...streamOperations, ...downloadOperations]) {
    for (const path of [operation.path, ...operation.legacyPaths.map((legacy) => legacy.path)]) {
      const methods = byPath.get(path) ?? new Set<string>();
      methods.add(operation.method);
      byPath.set(path, methods);
    }
  }
  return [...byPath].map(([path, methods]) => ({ path, segments: path.split("/").filter(Boolean), methods }));
}

let templates: Template[] | undefined;

/** `{model_identifier}` is `<provider>/<model>` and may span segments; every other parameter is one. */
function isRestParameter(part: string) {
  return part === "{model_identifier}" || part === "{modelIdentifier}";
}

/**
 * The parameters of a concrete path's segments under a template, or null when they are not of its
 * shape; a parameter spanning segments gets them joined with "/", as Next passes a catch-all.
 */
function bind(template: string[], segments: string[], params: Record<string, string> = {}): Record<string, string> | null {
  const [head, ...rest] = template;
  if (head === undefined) return segments.length === 0 ? params : null;
  if (segments.length === 0) return null;
  const name = head.slice(1, -1);
  if (isRestParameter(head)) {
    for (let take = 1; take <= segments.length; take += 1) {
      const bound = bind(rest, segments.slice(take), { ...params, [name]: segments.slice(0, take).join("/") });
      if (bound) return bound;
    }
    return null;
  }
  if (head.startsWith("{")) return bind(rest, segments.slice(1), { ...params, [name]: segments[0] as string });
  return head === segments[0] ? bind(rest, segments.slice(1), params) : null;
}

type Match = { template: Template; params: Record<string, string> };

/**
 * The templates a concrete path names, with its parameters under each. As in Next's routing,
 * literal segments win over parameters (/v1/content/list is not an id): only the most literal
 * matches count. Equally specific shapes share the path (the legacy image-generation GET and POST).
 */
function templatesAt(pathname: string): Match[] {
  templates ??= templatesFromRegistry();
  const segments = pathname.split("/").filter(Boolean);
  const matching: Match[] = [];
  for (const template of templates) {
    const params = bind(template.segments, segments);
    if (params) matching.push({ template, params });
  }
  const literals = ({ template }: Match) => template.segments.filter((segment) => !segment.startsWith("{")).length;
  const best = Math.max(...matching.map(literals));
  return matching.filter((match) => literals(match) === best);
}

/** The methods served at a concrete path, in registry order, or null when no operation is there. */
export function methodsAt(pathname: string): string[] | null {
  return methodsOf(templatesAt(pathname));
}

function methodsOf(found: Match[]): string[] | null {
  const methods = new Set(found.flatMap(({ template }) => [...template.methods]));
  return methods.size > 0 ? ["GET", "POST", "DELETE"].filter((method) => methods.has(method)) : null;
}

function envelope(status: number, body: unknown, requestId: string, extra: Record<string, string> = {}): EdgeAnswer {
  return {
    status,
    body: JSON.stringify(body),
    headers: { "content-type": "application/json; charset=utf-8", "x-request-id": requestId, "cache-control": "no-store", ...extra },
  };
}

function refuse(error: ApiError): EdgeAnswer {
  const requestId = newRequestId();
  return envelope(error.status, errorBody(error, requestId), requestId, error.headers);
}

/** /v1, /v1/…, /api/v1 and /api/v1/…: the paths the edge speaks for. */
export function isV1Path(rawPath: string): boolean {
  return /^\/(api\/)?v1(\/|$|\?)/.test(rawPath);
}

function decodePath(rawPath: string): string | null {
  try {
    return rawPath.split("/").map(decodeURIComponent).join("/");
  } catch {
    return null;
  }
}

export function decideAtEdge(method: string, rawUrl: string): EdgeDecision {
  const rawPath = rawUrl.split("?")[0] ?? "/";
  const decoded = decodePath(rawPath);
  if (decoded === null) {
    return {
      answer: refuse(
        new ApiError("ERR1001", "The path is not valid percent-encoded UTF-8.", {
          path: rawPath.slice(0, 200),
          fields: [{ field: "path", message: "is not valid percent-encoding" }],
        }),
      ),
    };
  }
  const pathname = decoded.replace(/^\/api\/v1(?=\/|$)/, "/v1").replace(/\/+$/, "") || "/v1";
  // Dot segments and empty segments name no operation; Next would resolve or redirect them away from /v1.
  if (/\/\.{1,2}(\/|$)/.test(pathname) || pathname.includes("//")) {
    return { answer: refuse(new ApiError("ERR1006", `No route ${method} ${rawPath}.`, { path: rawPath.slice(0, 200), method })) };
  }
  if (pathname === "/v1") {
    return {
      answer: refuse(
        new ApiError("ERR1006", `No route ${method} ${rawPath}. The operations are listed in ${DOCUMENT_PATH}.`, {
          path: rawPath,
          method,
          openapi: DOCUMENT_PATH,
        }),
      ),
    };
  }
  const found = templatesAt(pathname);
  const served = methodsOf(found);
  // Unknown paths with a method Next knows reach the catch-all route, which answers ERR1006.
  if (!served)
    return NEXT_METHODS.has(method)
      ? { pass: true, headAsGet: false, route: null }
      : { answer: refuse(new ApiError("ERR1006", `No route ${method} ${rawPath}.`, { path: rawPath, method })) };

  const allow = served.join(", ");
  // Direct serving is for the modern paths as written: /api/v1 (a rewrite) and percent-encoded
  // paths (whose decoding into parameters is Next's to decide) stay with Next.
  const routeFor = (asked: string): MatchedRoute | null => {
    const serving = found.filter(({ template }) => template.methods.has(asked));
    const [only] = serving;
    return only && serving.length === 1 && rawPath.startsWith("/v1/") && !rawPath.includes("%")
      ? { path: only.template.path, params: only.params }
      : null;
  };
  if (method === "HEAD" && served.includes("GET")) return { pass: true, headAsGet: true, route: routeFor("GET") };
  if (method === "OPTIONS") {
    const requestId = newRequestId();
    return {
      answer: envelope(200, successBody({ allowed_methods: served }, { requestId, message: `Allowed methods: ${allow}.` }), requestId, {
        allow,
      }),
    };
  }
  if (!served.includes(method)) {
    return { answer: refuse(new ApiError("ERR1008", `Allowed methods: ${allow}.`, { allowed_methods: served }, { allow })) };
  }
  return { pass: true, headAsGet: false, route: routeFor(method) };
}

/**
 * The URL with the path's trailing slashes removed: Next would answer `/v1/status/` with a 308
 * redirect, outside the envelope (found by drill R4); the edge has already matched it as `/v1/status`.
 */
export function withoutTrailingSlash(rawUrl: string): string {
  return rawUrl.replace(/^([^?]*?)\/+(?=\?|$)/, "$1");
}

/** What a request Node's parser refuses (unknown method token, broken header line) is answered. */
export function malformedRequestAnswer(): EdgeAnswer {
  return refuse(new ApiError("ERR1001", "The request could not be parsed as HTTP/1.1.", {}));
}

/** Headers that would make Next treat a /v1 request as a Server Action or an RSC request. */
export function stripFrameworkHeaders(headers: IncomingHttpHeaders): void {
  for (const name of ["next-action", "next-router-state-tree", "next-router-prefetch", "rsc"]) delete headers[name];
}
