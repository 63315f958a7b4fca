import { describe, expect, it } from "vitest";
import { scopePresets, type ScopePreset } from "@/server/keys/scopes";
import { api, expectError } from "../support/http";
import { createTestAccount, createTestKey } from "../support/fixtures";

// Spec §5: each preset against each route. A key lacking the route's scope gets ERR1003.

const routes: Array<{ path: string; scope: string }> = [
  { path: "/v1/status", scope: "account:read" },
  { path: "/v1/usage", scope: "account:read" },
  { path: "/v1/user/account", scope: "account:read" },
  { path: "/v1/user/billing", scope: "account:read" },
  { path: "/v1/estimate/darkroom/lumen-image", scope: "library:read" },
  { path: "/v1/library/models", scope: "library:read" },
  { path: "/v1/library/providers", scope: "library:read" },
  { path: "/v1/health/inference/providers", scope: "health:read" },
  { path: "/v1/health/inference/models", scope: "health:read" },
  { path: "/v1/health/storage", scope: "health:read" },
  { path: "/v1/health/cache", scope: "health:read" },
];

describe("scope matrix", () => {
  const presets = Object.keys(scopePresets) as ScopePreset[];
  for (const preset of presets) {
    it(`${preset} preset: allowed exactly on the routes of its scopes`, async () => {
      const account = await createTestAccount();
      const key = await createTestKey(account.accountId, { preset });
      const scopes: readonly string[] = scopePresets[preset];
      for (const route of routes) {
        const reply = await api(route.path, { key: key.key });
        if (scopes.includes(route.scope)) {
          expect(reply.status, `${preset} ${route.path}: ${JSON.stringify(reply.body)}`).toBe(200);
        } else {
          const error = expectError(reply, "ERR1003", "insufficient_scope", 403, false);
          expect(error.details.required_scope).toBe(route.scope);
        }
      }
    });
  }

  it("Generate Only refuses GET /v1/status, as the spec says", async () => {
    const account = await createTestAccount();
    const key = await createTestKey(account.accountId, { preset: "generate" });
    expectError(await api("/v1/status", { key: key.key }), "ERR1003", "insufficient_scope", 403, false);
  });

  it("a custom scope set is honoured", async () => {
    const account = await createTestAccount();
    const key = await createTestKey(account.accountId, { scopes: ["health:read"] });
    expect((await api("/v1/health/cache", { key: key.key })).status).toBe(200);
    expectError(await api("/v1/library/models", { key: key.key }), "ERR1003", "insufficient_scope", 403, false);
  });
});
