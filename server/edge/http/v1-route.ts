import "server-only";
import { errorResponse, newRequestId } from "./envelope";
import { ApiError } from "../../base/error-table";
import { servedDirectly } from "./direct-routes";
import type { NextRouteContext, OperationRoute } from "./with-api-key";

// A /v1 route file exports every method: the operations it serves, and an ERR1008 envelope with
// an Allow header (read from those operations) for the rest; Next would otherwise answer 405
// with an empty body. A file at the operations' own path also registers its handlers for our
// HTTP server to call without Next's router once Next has loaded it (direct-routes.ts).

type RouteHandler = (request: Request, context: NextRouteContext) => Promise<Response>;
const methods = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Method = (typeof methods)[number];

export function methodNotAllowed(allowed: string[]): RouteHandler {
  return async () =>
    errorResponse(new ApiError("ERR1008", `Allowed methods: ${allowed.join(", ")}.`, { allowed_methods: allowed }), newRequestId(), {
      allow: allowed.join(", "),
    });
}

export function v1Route(...routes: OperationRoute[]): Record<Method, RouteHandler> {
  const served = new Map<string, RouteHandler>(routes.map((route) => [route.operation.method, route]));
  if (served.size !== routes.length) throw new Error("v1Route: two operations with one method");
  const refuse = methodNotAllowed(methods.filter((method) => served.has(method)));
  const handlers = Object.fromEntries(methods.map((method) => [method, served.get(method) ?? refuse])) as Record<Method, RouteHandler>;
  const path = routes[0]?.servedAt;
  return path && routes.every((route) => route.servedAt === path) ? servedDirectly(path, handlers) : handlers;
}
