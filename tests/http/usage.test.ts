import { describe, expect, it } from "vitest";
import { api, expectError, expectSuccess } from "@/tests/support/http";
import { accountWithKey, createTestKey } from "@/tests/support/fixtures";

// GET /v1/usage after a known sequence of requests.

describe("GET /v1/usage", () => {
  it("returns zeros for an account that did nothing yet", async () => {
    const { key, accountId } = await accountWithKey();
    const data = expectSuccess(await api("/v1/usage", { key }));
    expect(data).toEqual({
      account_id: accountId,
      usage_period_days: 30,
      usage_credit_balance: 1,
      usage_total_requests: 0,
      usage_total_success: 0,
      usage_total_client_errors: 0,
      usage_total_server_errors: 0,
      usage_total_generations: 0,
      usage_total_provider_submissions: 0,
      usage_total_estimated_cost: 0,
      usage_endpoints: [],
      usage_providers: [],
    });
  });

  it("counts a known sequence of requests by endpoint and error code", async () => {
    const { key, accountId } = await accountWithKey();
    const monitor = await createTestKey(accountId, { preset: "monitor" });
    for (let index = 0; index < 3; index += 1) expectSuccess(await api("/v1/status", { key }));
    expectSuccess(await api("/v1/library/models", { key }));
    expectError(await api("/v1/usage?days=0", { key }), "ERR1001");
    expectError(await api("/v1/estimate/nobody/nothing", { key }), "ERR1012");
    expectError(await api("/v1/status", { key: monitor.key }), "ERR1003");

    const data = expectSuccess(await api("/v1/usage?days=7", { key }));
    expect(data).toMatchObject({
      account_id: accountId,
      usage_period_days: 7,
      usage_total_requests: 7,
      usage_total_success: 4,
      usage_total_client_errors: 3,
      usage_total_server_errors: 0,
    });
    const byEndpoint = Object.fromEntries(data.usage_endpoints.map((entry: any) => [entry.endpoint, entry]));
    expect(byEndpoint["/v1/status"]).toEqual({ endpoint: "/v1/status", total_requests: 4, success_count: 3, client_error_count: 1, server_error_count: 0, error_codes: { ERR1003: 1 } });
    expect(byEndpoint["/v1/usage"]).toEqual({ endpoint: "/v1/usage", total_requests: 1, success_count: 0, client_error_count: 1, server_error_count: 0, error_codes: { ERR1001: 1 } });
    expect(byEndpoint["/v1/estimate/{model_identifier}"]).toMatchObject({ total_requests: 1, error_codes: { ERR1012: 1 } });
    expect(byEndpoint["/v1/library/models"]).toMatchObject({ total_requests: 1, success_count: 1, error_codes: {} });
  });

  it("refuses days outside 1..90 naming the parameter", async () => {
    const { key } = await accountWithKey();
    for (const days of ["0", "91", "abc", "1.5", "-3"]) {
      const error = expectError(await api(`/v1/usage?days=${days}`, { key }), "ERR1001");
      expect(error.details.fields[0].field).toBe("days");
    }
    expect(expectSuccess(await api("/v1/usage?days=90", { key })).usage_period_days).toBe(90);
    expect(expectSuccess(await api("/v1/usage?days=1", { key })).usage_period_days).toBe(1);
  });
});
