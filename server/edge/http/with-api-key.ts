import "server-only";
import { isIpAllowed } from "../../keys/ip-allowlist";
import { consumeRateLimit, peekRateLimit, rateLimitHeaders } from "../../rate-limit/check-rate-limit";
import { log } from "../../base/log";
import { authenticate, KeyRefused } from "./authenticate";
import type { AuthenticatedKey } from "../../keys/authenticated-key";
import { clientIpOf } from "../../base/net/client-ip";
import type { AnyOperation, OperationHandler } from "./define-operation";
import { errorResponse, jsonResponse, newRequestId } from "./envelope";
import { ApiError, toApiError } from "../../base/error-table";
import { readOperationInput } from "./operation-input";
import { writeRequestLog } from "./request-log";
import { originOfRequest, regionOfRequest } from "./region";
import { env, type RegionName } from "../../base/env";
import { runOperation, type OperationOutcome } from "./run-operation";

// The one checkpoint for every authenticated /v1 request, in this order: key (ERR1002, region
// included), IP allowlist (ERR1007), scope (ERR1003), rate limit (ERR1005, headers on every
// response), the operation's query, Idempotency-Key and body, the handler, then the request log
// and last-used time. The operation says what to check; the handler only translates.

export type NextRouteContext = { params: Promise<Record<string, string | string[] | undefined>> };

/**
 * A route function that knows the operation it serves (v1Route reads the methods from it) and the
 * path it is served at: the operation's own, or null under a legacy path.
 */
export type OperationRoute = ((request: Request, context?: NextRouteContext) => Promise<Response>) & {
  operation: AnyOperation;
  servedAt: string | null;
};

async function resolveParams(context: NextRouteContext | undefined): Promise<Record<string, string>> {
  const raw = (await context?.params) ?? {};
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (typeof value === "string") params[name] = value;
    else if (Array.isArray(value)) params[name] = value.join("/");
  }
  return params;
}

export function withApiKey<Op extends AnyOperation>(operation: Op, handler: OperationHandler<Op>): OperationRoute {
  const route = async function route(request: Request, context?: NextRouteContext): Promise<Response> {
    const startedAt = Date.now();
    const requestId = newRequestId();
    const url = new URL(request.url);
    const clientIp = clientIpOf(request);
    // Refined to a custom hostname's region once the origin is resolved (inside the try below).
    let region: RegionName = regionOfRequest(request) ?? env().REGION;
    let key: AuthenticatedKey | null = null;
    let headers: Record<string, string> = {};
    let response: Response;
    let errorCode: string | null = null;
    let outcome: OperationOutcome | null = null;

    try {
      const origin = await originOfRequest(request);
      region = origin.region;
      key = await authenticate(request, origin);
      const limiter = { accountId: key.account.id, plan: key.account.plan, bucket: operation.bucket };
      if (!isIpAllowed(key.ipAllowlist, clientIp)) {
        headers = rateLimitHeaders(await peekRateLimit(limiter), false);
        throw new ApiError("ERR1007", undefined, { client_ip: clientIp });
      }
      if (!key.scopes.includes(operation.scope)) {
        headers = rateLimitHeaders(await peekRateLimit(limiter), false);
        throw new ApiError("ERR1003", `This route requires the ${operation.scope} scope.`, {
          required_scope: operation.scope,
          key_scopes: key.scopes,
        });
      }
      headers = rateLimitHeaders(await consumeRateLimit(limiter), false);

      const params = await resolveParams(context);
      const input = await readOperationInput(operation, request, url, params);
      outcome = await runOperation(operation, handler as OperationHandler<AnyOperation>, {
        requestId,
        key,
        accountId: key.account.id,
        clientIp,
        params,
        input,
        request,
      });
      const replayHeaders: Record<string, string> = outcome.replayed ? { "idempotency-replayed": "true" } : {};
      response = outcome.stream
        ? withHeaders(outcome.stream, { ...headers, "x-request-id": requestId })
        : jsonResponse(outcome.body, outcome.status, outcome.replayed?.requestId ?? requestId, {
            ...headers,
            ...replayHeaders,
            ...outcome.headers,
          });
      errorCode = (outcome.body as { error?: { code?: string } } | null)?.error?.code ?? null;
    } catch (thrown) {
      if (thrown instanceof KeyRefused && thrown.key !== undefined) key = thrown.key;
      const error = toApiError(thrown);
      // A client that hung up mid-request is not a server fault worth an error line.
      if (error.code === "ERR5000" && !request.signal.aborted)
        log.error("unhandled error in /v1 handler", {
          requestId,
          endpoint: operation.path,
          error: thrown instanceof Error ? thrown.stack : String(thrown),
        });
      else if (error !== thrown && error.code === "ERR3001")
        log.warn("database unreachable: answered 503", {
          requestId,
          endpoint: operation.path,
          error: thrown instanceof Error ? thrown.message : String(thrown),
        });
      errorCode = error.code;
      // The client never learns why a key was refused; the request log does.
      const clientError = thrown instanceof KeyRefused ? new ApiError("ERR1002") : error;
      response = errorResponse(clientError, requestId, headers);
    }

    if (key) {
      await writeRequestLog({
        key,
        region,
        requestId: outcome?.replayed?.requestId ?? requestId,
        method: request.method,
        endpoint: operation.path,
        query: url.searchParams,
        statusCode: response.status,
        errorCode,
        idempotentReplay: Boolean(outcome?.replayed),
        clientIp,
        userAgent: request.headers.get("user-agent"),
        latencyMs: Date.now() - startedAt,
        touchLastUsed: errorCode !== "ERR1002",
      });
    }
    return response;
  };
  return Object.assign(route, { operation, servedAt: operation.path });
}

/** A stream's answer with the checkpoint's headers added (rate limit, request id). */
function withHeaders(response: Response, headers: Record<string, string>): Response {
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

/** The same route under a legacy path whose dynamic segment has another name. */
export function withParamRenamed(route: OperationRoute, from: string, to: string): OperationRoute {
  const renamed = (request: Request, context?: NextRouteContext) =>
    route(request, {
      params: (context?.params ?? Promise.resolve({} as Record<string, string | string[] | undefined>)).then((params) => ({
        [to]: params[from],
      })),
    });
  return Object.assign(renamed, { operation: route.operation, servedAt: null });
}
