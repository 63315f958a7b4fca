import { describe, expect, it } from "vitest";
import { errorTable } from "@/server/base/error-table";
import { errorCodeNumber } from "@/server/request-logs/request-log-batch";
import { parseRequestLogId, requestLogId } from "@/server/request-logs/request-log-id";
import { toRequestLogEntry } from "@/server/request-logs/request-log-entry";

// The entry's request_log_id spells its row's identity (millisecond, 4-byte number) as a UUID and
// reads back to it; error codes are kept as their numbers and read back as the table's codes.

describe("request_log_id", () => {
  it("reads back to the row it names, for every 4-byte number, and sorts by time", () => {
    const createdAt = new Date("2026-12-03T10:11:12.345Z");
    for (const id of [1, 0, -1, 2 ** 31 - 1, -(2 ** 31), 123_456_789]) {
      const text = requestLogId({ createdAt, id });
      expect(text).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7000-8000-0000[0-9a-f]{8}$/);
      expect(parseRequestLogId(text)).toEqual({ createdAt, id });
    }
    expect(requestLogId({ createdAt, id: 5 }) < requestLogId({ createdAt: new Date(createdAt.getTime() + 1), id: 1 })).toBe(true);
  });

  it("is not read from what it does not spell", () => {
    for (const text of ["", "not-a-uuid", "3f2b8c1e-1111-4222-8333-444455556666", "0194e8c7-1a2b-7000-8000-0001000000ff"])
      expect(parseRequestLogId(text)).toBeNull();
  });
});

describe("error codes as numbers", () => {
  it("keep every code of the error table, and read back as it", () => {
    for (const code of Object.keys(errorTable)) {
      const number = errorCodeNumber(code);
      expect(number).toBeGreaterThan(0);
      expect(number).toBeLessThan(32768);
      const entry = toRequestLogEntry({
        created_at: new Date(),
        id: 1,
        request_id: "00000000-0000-0000-0000-000000000000",
        request_ref: "r",
        api_key_id: null,
        key_name: "k",
        key_prefix: "dkr_abcd",
        key_state: "active",
        method: "GET",
        endpoint: "/v1/status",
        query: "",
        status_code: 400,
        error_code: number,
        idempotent_replay: false,
        ip_hash: "h",
        user_agent: null,
        latency_ms: 0,
      });
      expect(entry.error_code).toBe(code);
    }
    expect(errorCodeNumber(null)).toBe(0);
    expect(() => errorCodeNumber("E1")).toThrow(RangeError);
  });
});
