import { errorResponse, newRequestId } from "./envelope";
import { ApiError } from "./errors";
import type { NextRouteContext } from "./with-api-key";

// A /v1 route file exports every method: the ones it serves, and an ERR1008 envelope for the
// rest (Next would otherwise answer 405 with an empty body).

type RouteHandler = (request: Request, context: NextRouteContext) => Promise<Response>;
const methods = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Method = (typeof methods)[number];

export function methodNotAllowed(allowed: string[]): RouteHandler {
  return async () =>
    errorResponse(new ApiError("ERR1008", `Allowed methods: ${allowed.join(", ")}.`, { allowed_methods: allowed }), newRequestId(), { allow: allowed.join(", ") });
}

export function v1Route(handlers: Partial<Record<Method, RouteHandler>>): Record<Method, RouteHandler> {
  const allowed = methods.filter((method) => handlers[method]);
  const refuse = methodNotAllowed(allowed);
  return Object.fromEntries(methods.map((method) => [method, handlers[method] ?? refuse])) as Record<Method, RouteHandler>;
}
