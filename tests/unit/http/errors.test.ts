import { describe, expect, it } from "vitest";
import { ApiError, errorTable, toApiError } from "@/server/base/error-table";
import { errorBody } from "@/server/edge/http/envelope";

// The one error table, code by code.

const expected: Record<string, [string, number, boolean]> = {
  ERR1001: ["invalid_request", 400, false],
  ERR1002: ["authentication_failed", 401, false],
  ERR1003: ["insufficient_scope", 403, false],
  ERR1004: ["insufficient_credits", 402, false],
  ERR1005: ["rate_limit_exceeded", 429, true],
  ERR1006: ["not_found", 404, false],
  ERR1007: ["ip_not_allowed", 403, false],
  ERR1008: ["method_not_allowed", 405, false],
  ERR1009: ["concurrency_limit_exceeded", 429, true],
  ERR1010: ["generation_not_cancelable", 409, false],
  ERR1011: ["payload_too_large", 413, false],
  ERR1012: ["model_not_found", 404, false],
  ERR1013: ["range_not_satisfiable", 416, false],
  ERR1014: ["spend_limit_exceeded", 402, false],
  ERR1015: ["unsupported_media_type", 415, false],
  ERR2014: ["invalid_idempotency_key", 400, false],
  ERR2015: ["idempotency_key_conflict", 409, false],
  ERR2016: ["idempotency_request_in_progress", 409, true],
  ERR3001: ["service_paused", 503, true],
  ERR4001: ["provider_timeout", 504, true],
  ERR4002: ["provider_unavailable", 503, true],
  ERR4003: ["upload_failed", 502, true],
  ERR4004: ["all_providers_failed", 502, true],
  ERR4005: ["provider_rejected", 422, false],
  ERR4006: ["deadline_exceeded", 504, false],
  ERR5000: ["internal_error", 500, true],
};

describe("error table", () => {
  it("has exactly the documented codes with their type, status and retryable", () => {
    expect(Object.keys(errorTable).sort()).toEqual(Object.keys(expected).sort());
    for (const [code, [type, status, retryable]] of Object.entries(expected)) {
      expect(errorTable[code as keyof typeof errorTable], code).toEqual({ type, status, retryable });
    }
  });

  it("renders the error envelope with details always an object", () => {
    const body = errorBody(new ApiError("ERR1003"), "req-1");
    expect(body).toEqual({
      status: "error",
      request_id: "req-1",
      error: { code: "ERR1003", type: "insufficient_scope", message: expect.any(String), retryable: false, details: {} },
    });
  });

  it("turns anything unknown into a redacted ERR5000", () => {
    const error = toApiError(new Error("connection string postgresql://user:secret@db/x"));
    expect(error.code).toBe("ERR5000");
    expect(error.message).not.toContain("secret");
    expect(error.details).toEqual({});
  });
});
