import { describe, expect, it } from "vitest";
import { apiKeyScopes, isApiKeyScope, resolveScopes, scopePresetLabels, scopePresets } from "@/server/keys/scopes";
import { errorOf } from "@/tests/support/api-error";

describe("scopes and presets", () => {
  it("has exactly the six scopes", () => {
    expect([...apiKeyScopes].sort()).toEqual([
      "account:read",
      "generation:delete",
      "generation:read",
      "generation:write",
      "health:read",
      "library:read",
    ]);
  });

  it("has the four presets with their scope sets", () => {
    expect(Object.keys(scopePresets).sort()).toEqual(["full", "generate", "monitor", "read"]);
    expect([...scopePresets.full].sort()).toEqual([...apiKeyScopes].sort());
    expect([...scopePresets.generate].sort()).toEqual(["generation:read", "generation:write", "library:read"]);
    expect([...scopePresets.read].sort()).toEqual(["account:read", "generation:read", "health:read", "library:read"]);
    expect([...scopePresets.monitor].sort()).toEqual(["health:read", "library:read"]);
    expect(scopePresetLabels).toEqual({ full: "Full Access", generate: "Generate Only", read: "Read Only", monitor: "Monitor Only" });
  });

  it("Generate Only cannot read the account (GET /v1/status is refused)", () => {
    expect(resolveScopes({ preset: "generate" })).not.toContain("account:read");
  });

  it("resolves presets, defaulting to Full Access", () => {
    expect(resolveScopes({})).toEqual([...apiKeyScopes]);
    expect(resolveScopes({ preset: "monitor" })).toEqual(["health:read", "library:read"]);
  });

  it("resolves custom sets de-duplicated in canonical order", () => {
    expect(resolveScopes({ scopes: ["library:read", "generation:write", "library:read"] })).toEqual(["generation:write", "library:read"]);
  });

  it("refuses unknown scopes and presets with ERR1001", () => {
    const scope = errorOf(() => resolveScopes({ scopes: ["generation:read", "admin:all"] }));
    expect(scope.code).toBe("ERR1001");
    expect(scope.message).toContain("admin:all");
    expect(errorOf(() => resolveScopes({ preset: "admin" })).code).toBe("ERR1001");
    expect(errorOf(() => resolveScopes({ preset: "toString" })).code).toBe("ERR1001");
    expect(errorOf(() => resolveScopes({ scopes: ["Generation:Read"] })).code).toBe("ERR1001");
  });

  it("refuses an empty scope list and a preset combined with scopes", () => {
    expect(errorOf(() => resolveScopes({ scopes: [] })).code).toBe("ERR1001");
    expect(errorOf(() => resolveScopes({ preset: "full", scopes: ["health:read"] })).code).toBe("ERR1001");
  });

  it("isApiKeyScope", () => {
    expect(isApiKeyScope("health:read")).toBe(true);
    expect(isApiKeyScope("health:write")).toBe(false);
  });
});
