import { randomUUID } from "node:crypto";
import { ApiError } from "../../base/error-table";

// The success and error envelopes. Every /v1 response goes through one of these.

export type Pagination = { total: number; limit: number; offset: number; has_more: boolean; next_cursor: string | null };

export function newRequestId() {
  return randomUUID();
}

type SuccessOptions = {
  requestId: string;
  message?: string;
  status?: number;
  pagination?: Pagination;
  headers?: Record<string, string>;
};

export function successBody(data: unknown, options: Omit<SuccessOptions, "status" | "headers">) {
  return {
    status: "success" as const,
    request_id: options.requestId,
    message: options.message ?? "OK",
    timestamp: new Date().toISOString(),
    ...(options.pagination ?? {}),
    data,
  };
}

export function errorBody(error: ApiError, requestId: string) {
  return { status: "error" as const, request_id: requestId, error: error.toBody() };
}

export function jsonResponse(body: unknown, status: number, requestId: string, headers: Record<string, string> = {}) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "x-request-id": requestId, "cache-control": "no-store", ...headers },
  });
}

export function successResponse(data: unknown, options: SuccessOptions) {
  return jsonResponse(successBody(data, options), options.status ?? 200, options.requestId, options.headers);
}

export function errorResponse(error: ApiError, requestId: string, headers: Record<string, string> = {}) {
  return jsonResponse(errorBody(error, requestId), error.status, requestId, { ...headers, ...error.headers });
}
