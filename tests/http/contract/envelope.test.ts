import { describe, expect, it } from "vitest";
import { api, expectError } from "@/tests/support/http";
import { accountWithKey } from "@/tests/support/fixtures";

// JSON envelopes on every /v1 path: unknown routes and wrong methods. Legacy aliases are pinned in
// the file of the route they serve (routes/*.test.ts).

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
