import { describe, expect, it } from "vitest";
import { api, expectError, expectSuccess } from "@/tests/support/http";
import { accountWithKey } from "@/tests/support/fixtures";

// JSON envelopes on every /v1 path: unknown routes, wrong methods, legacy aliases.

describe("the /v1 envelope on paths no handler serves", () => {
  it("answers an unknown route with ERR1006 in the error envelope", async () => {
    const reply = await api("/v1/no/such/route");
    const error = expectError(reply, "ERR1006");
    expect(error.details).toMatchObject({ path: "/v1/no/such/route", method: "GET" });
  });

  it("answers an unknown route under the legacy /api/v1 base the same way", async () => {
    expectError(await api("/api/v1/nothing-here", { method: "POST" }), "ERR1006");
  });

  it("answers a wrong method with ERR1008 and an Allow header", async () => {
    const { key } = await accountWithKey();
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
      const reply = await api("/v1/status", { key, method, body: {} });
      const error = expectError(reply, "ERR1008");
      expect(reply.headers.get("allow")).toBe("GET");
      expect(error.details).toEqual({ allowed_methods: ["GET"] });
    }
  });
});

describe("legacy path forms", () => {
  it("serves /api/v1/status like /v1/status", async () => {
    const { key, accountId } = await accountWithKey();
    const data = expectSuccess(await api("/api/v1/status", { key }));
    expect(data.account_id).toBe(accountId);
  });

  it("serves /v1/data/account like /v1/user/account", async () => {
    const { key, accountId, email } = await accountWithKey();
    const modern = expectSuccess(await api("/v1/user/account", { key }));
    const legacy = expectSuccess(await api("/v1/data/account", { key }));
    expect(legacy).toEqual(modern);
    expect(legacy).toMatchObject({ account_id: accountId, account_email: email });
  });

  it("serves /v1/health/providers like /v1/health/inference/providers", async () => {
    const { key } = await accountWithKey();
    const legacy = expectSuccess(await api("/v1/health/providers", { key }));
    expect(legacy.service).toBe("providers");
    expect(Object.keys(legacy).sort()).toEqual(["healthy", "providers", "providers_total", "service"]);
  });

  it("serves /api/v1/health/providers through both aliases", async () => {
    const { key } = await accountWithKey();
    expect(expectSuccess(await api("/api/v1/health/providers", { key })).service).toBe("providers");
  });
});
