import { describe, expect, it } from "vitest";
import { db } from "@/server/base/db";
import { getStatus, getUsage } from "@/server/edge/http/operations/account";
import { getEstimate, listModels } from "@/server/edge/http/operations/catalog";
import { accountWithKey, createTestKey } from "@/tests/support/fixtures";
import { callOperation, expectError, expectSuccess, invalidFields } from "@/tests/support/http";
import { whenLogged } from "@/tests/support/request-logs";
import { emptyUsage } from "@/tests/support/usage";

// GET /v1/usage (getUsage) after a known sequence of requests.

describe("200", () => {
  it("returns zeros for an account that did nothing yet", async () => {
    const { key, accountId } = await accountWithKey();
    const data = expectSuccess(await callOperation(getUsage, { key }));
    expect(data).toEqual(emptyUsage(accountId, 30, 1));
  });

  it("counts a known sequence of requests by endpoint and error code", async () => {
    const { key, accountId } = await accountWithKey();
    const monitor = await createTestKey(accountId, { preset: "monitor" });
    for (let index = 0; index < 3; index += 1) expectSuccess(await callOperation(getStatus, { key }));
    expectSuccess(await callOperation(listModels, { key }));
    expectError(await callOperation(getUsage, { key, query: { days: 0 } }), "ERR1001");
    expectError(await callOperation(getEstimate, { key, params: { model_identifier: "nobody/nothing" } }), "ERR1012");
    expectError(await callOperation(getStatus, { key: monitor.key }), "ERR1003");
    // Rows are written in batches (request-log-buffer.ts): usage counts them once all 7 are in.
    await whenLogged(() => db.requestLog.findMany({ where: { accountId }, select: { id: true } }), 7);

    const data = expectSuccess(await callOperation(getUsage, { key, query: { days: 7 } }));
    expect(data).toMatchObject({
      account_id: accountId,
      usage_period_days: 7,
      usage_total_requests: 7,
      usage_total_success: 4,
      usage_total_client_errors: 3,
      usage_total_server_errors: 0,
    });
    const byEndpoint = Object.fromEntries(data.usage_endpoints.map((entry) => [entry.endpoint, entry]));
    expect(byEndpoint["/v1/status"]).toEqual({
      endpoint: "/v1/status",
      total_requests: 4,
      success_count: 3,
      client_error_count: 1,
      server_error_count: 0,
      error_codes: { ERR1003: 1 },
    });
    expect(byEndpoint["/v1/usage"]).toEqual({
      endpoint: "/v1/usage",
      total_requests: 1,
      success_count: 0,
      client_error_count: 1,
      server_error_count: 0,
      error_codes: { ERR1001: 1 },
    });
    expect(byEndpoint["/v1/estimate/{model_identifier}"]).toMatchObject({ total_requests: 1, error_codes: { ERR1012: 1 } });
    expect(byEndpoint["/v1/library/models"]).toMatchObject({ total_requests: 1, success_count: 1, error_codes: {} });
  });

  it("accepts days at both ends of 1..90", async () => {
    const { key } = await accountWithKey();
    expect(expectSuccess(await callOperation(getUsage, { key, query: { days: 90 } })).usage_period_days).toBe(90);
    expect(expectSuccess(await callOperation(getUsage, { key, query: { days: 1 } })).usage_period_days).toBe(1);
  });
});

describe("400", () => {
  it("refuses days outside 1..90 naming the parameter", async () => {
    const { key } = await accountWithKey();
    for (const days of ["0", "91", "abc", "1.5", "-3"]) {
      const error = expectError(await callOperation(getUsage, { key, query: { days } }), "ERR1001");
      expect(invalidFields(error)[0]).toBe("days");
    }
  });
});
