import "server-only";
import { TRPCError } from "@trpc/server";
import type { TRPC_ERROR_CODE_KEY } from "@trpc/server/rpc";
import { ApiError, errorTable, toApiError, type ErrorCode } from "../../base/error-table";
import { fieldErrorsFromIssues, type SchemaIssue } from "../../base/field-errors";
import { log } from "../../base/log";

// tRPC speaks the same error table as /v1: every failure becomes an ApiError, carried
// as the TRPCError's cause, with the tRPC code that matches its HTTP status. Unknown errors are
// logged here and reach the browser as a redacted ERR5000.

const trpcCodeByStatus: Record<number, TRPC_ERROR_CODE_KEY> = {
  400: "BAD_REQUEST",
  401: "UNAUTHORIZED",
  402: "PAYMENT_REQUIRED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  405: "METHOD_NOT_SUPPORTED",
  409: "CONFLICT",
  413: "PAYLOAD_TOO_LARGE",
  415: "UNSUPPORTED_MEDIA_TYPE",
  422: "UNPROCESSABLE_CONTENT",
  429: "TOO_MANY_REQUESTS",
  502: "BAD_GATEWAY",
  503: "SERVICE_UNAVAILABLE",
  504: "GATEWAY_TIMEOUT",
};

const trpcRefusals: Partial<Record<TRPC_ERROR_CODE_KEY, () => ApiError>> = {
  NOT_FOUND: () => new ApiError("ERR1006", "No such procedure."),
  METHOD_NOT_SUPPORTED: () => new ApiError("ERR1008"),
  UNSUPPORTED_MEDIA_TYPE: () => new ApiError("ERR1015", "Send the request as application/json.", { supported: ["application/json"] }),
  PAYLOAD_TOO_LARGE: () => new ApiError("ERR1011"),
  BAD_REQUEST: () => new ApiError("ERR1001"),
};

function hasIssues(value: unknown): value is { issues: SchemaIssue[] } {
  return typeof value === "object" && value !== null && Array.isArray((value as { issues?: unknown }).issues);
}

/** Input that failed its zod schema: ERR1001 naming every field, as /v1 names them. */
function fromIssues(issues: SchemaIssue[]): ApiError {
  const fields = fieldErrorsFromIssues(issues, "input");
  const first = fields[0];
  return new ApiError("ERR1001", first ? `${first.field}: ${first.message}` : "The input is invalid.", { fields });
}

export function toDashboardApiError(error: unknown): ApiError {
  const cause = error instanceof TRPCError ? (error.cause ?? error) : error;
  if (cause instanceof ApiError) return cause;
  if (hasIssues(cause)) return fromIssues(cause.issues);
  // tRPC reads the body lazily, so a malformed one surfaces as the JSON parser's SyntaxError.
  if ((error instanceof TRPCError && error.code === "PARSE_ERROR") || (cause instanceof SyntaxError && /JSON/.test(cause.message))) {
    return new ApiError("ERR1001", "The request body is not valid JSON.");
  }
  // tRPC's own refusals of a request (no procedure, a method or content type it does not take, a
  // body too large): the client's mistake, with the table's code for it, never ERR5000.
  const refusal = error instanceof TRPCError ? trpcRefusals[error.code] : undefined;
  if (refusal) return refusal();
  log.error("dashboard request failed", { error: cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause) });
  return toApiError(cause);
}

export function toTRPCError(error: unknown): TRPCError {
  const apiError = toDashboardApiError(error);
  const status = errorTable[apiError.code as ErrorCode].status;
  return new TRPCError({ code: trpcCodeByStatus[status] ?? "INTERNAL_SERVER_ERROR", message: apiError.message, cause: apiError });
}
