import { regionOfRequest } from "./region";
import { authenticate, KeyRefused, type AuthenticatedKey } from "./authenticate";
import { clientIpOf } from "./client-ip";
import { errorResponse, newRequestId, successResponse, jsonResponse, type Pagination } from "./envelope";
import { ApiError, toApiError } from "./errors";
import { writeRequestLog } from "./request-log";
import { isIpAllowed } from "../keys/ip-allowlist";
import { consumeRateLimit, peekRateLimit, rateLimitHeaders, type RateLimitBucket } from "../rate-limit/check-rate-limit";
import type { ApiKeyScope } from "../keys/scopes";
import { log } from "../runtime/log";

// The one checkpoint for every authenticated /v1 request, in this order: key (ERR1002, region
// included), IP allowlist (ERR1007), scope (ERR1003), rate limit (ERR1005, headers on every
// response), the handler, then the request log and last-used time. Handlers only translate.

export type ApiContext = {
  request: Request;
  requestId: string;
  key: AuthenticatedKey;
  accountId: string;
  params: Record<string, string>;
  query: URLSearchParams;
  clientIp: string;
};

export type ApiResult = {
  data: unknown;
  status?: number;
  message?: string;
  pagination?: Pagination;
  headers?: Record<string, string>;
};

/** A stored response returned as it was (idempotent replay): same request_id, status and body. */
export type ReplayedResult = { replay: { requestId: string; status: number; body: unknown } };

/** A body the handler already enveloped (and stored, for idempotency), sent as it is. */
export type PrebuiltResult = { prebuilt: { status: number; body: unknown } };

export type ApiHandler = (context: ApiContext) => Promise<ApiResult | ReplayedResult | PrebuiltResult>;

export type RouteOptions = {
  scope: ApiKeyScope;
  /** The route pattern as the spec writes it, e.g. "/v1/content/{generation_id}". */
  endpoint: string;
  bucket?: RateLimitBucket;
};

export type NextRouteContext = { params: Promise<Record<string, string | string[] | undefined>> };

async function resolveParams(context: NextRouteContext | undefined): Promise<Record<string, string>> {
  const raw = (await context?.params) ?? {};
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (typeof value === "string") params[name] = value;
    else if (Array.isArray(value)) params[name] = value.join("/");
  }
  return params;
}

export function withApiKey(handler: ApiHandler, options: RouteOptions) {
  const bucket = options.bucket ?? "general";
  return async function route(request: Request, context?: NextRouteContext): Promise<Response> {
    const startedAt = Date.now();
    const requestId = newRequestId();
    const url = new URL(request.url);
    const clientIp = clientIpOf(request);
    let key: AuthenticatedKey | null = null;
    let headers: Record<string, string> = {};
    let response: Response;
    let errorCode: string | null = null;
    let replayed = false;

    try {
      key = await authenticate(request, regionOfRequest(request));
      const limiter = { accountId: key.account.id, plan: key.account.plan, bucket };
      if (!isIpAllowed(key.ipAllowlist, clientIp)) {
        headers = rateLimitHeaders(await peekRateLimit(limiter), false);
        throw new ApiError("ERR1007", undefined, { client_ip: clientIp });
      }
      if (!key.scopes.includes(options.scope)) {
        headers = rateLimitHeaders(await peekRateLimit(limiter), false);
        throw new ApiError("ERR1003", `This route requires the ${options.scope} scope.`, { required_scope: options.scope, key_scopes: key.scopes });
      }
      headers = rateLimitHeaders(await consumeRateLimit(limiter), false);

      const result = await handler({ request, requestId, key, accountId: key.account.id, params: await resolveParams(context), query: url.searchParams, clientIp });
      if ("replay" in result) {
        replayed = true;
        const { replay } = result;
        response = jsonResponse(replay.body, replay.status, replay.requestId, { ...headers, "idempotency-replayed": "true" });
        const body = replay.body as { error?: { code?: string } };
        errorCode = body.error?.code ?? null;
      } else if ("prebuilt" in result) {
        response = jsonResponse(result.prebuilt.body, result.prebuilt.status, requestId, headers);
      } else {
        response = successResponse(result.data, { requestId, message: result.message, status: result.status, pagination: result.pagination, headers: { ...headers, ...result.headers } });
      }
    } catch (thrown) {
      if (thrown instanceof KeyRefused) key = thrown.key;
      const error = toApiError(thrown);
      // A client that hung up mid-request is not a server fault worth an error line.
      if (error.code === "ERR5000" && !request.signal.aborted) log.error("unhandled error in /v1 handler", { requestId, endpoint: options.endpoint, error: thrown instanceof Error ? thrown.stack : String(thrown) });
      errorCode = error.code;
      // The client never learns why a key was refused; the request log does.
      const clientError = thrown instanceof KeyRefused ? new ApiError("ERR1002") : error;
      response = errorResponse(clientError, requestId, headers);
    }

    if (key) {
      await writeRequestLog({
        key,
        requestId: replayed ? (response.headers.get("x-request-id") ?? requestId) : requestId,
        method: request.method,
        endpoint: options.endpoint,
        query: url.searchParams,
        statusCode: response.status,
        errorCode,
        idempotentReplay: replayed,
        clientIp,
        userAgent: request.headers.get("user-agent"),
        latencyMs: Date.now() - startedAt,
        touchLastUsed: errorCode !== "ERR1002",
      });
    }
    return response;
  };
}
