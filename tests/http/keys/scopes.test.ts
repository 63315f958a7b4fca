import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { v1Operations } from "@/server/edge/http/operations";
import type { AnyOperation } from "@/server/edge/http/define-operation";
import { scopePresets, type ScopePreset } from "@/server/keys/scopes";
import { api, errorCodeOf, expectError } from "@/tests/support/http";
import { createTestAccount, createTestKey } from "@/tests/support/fixtures";

// Each preset against every operation of the registry: a key lacking the operation's scope gets
// ERR1003 naming it; a key that has it gets past the scope check (creates are sent an empty body,
// so they stop at validation and spend nothing).

function requestFor(operation: AnyOperation) {
  const model = operation.path.includes("/video/") ? "darkroom/lumen-video" : "darkroom/lumen-image";
  const path = operation.path.replace("{model_identifier}", model).replace("{generation_id}", randomUUID());
  return { path, method: operation.method, body: operation.body ? {} : undefined };
}

describe("scope matrix", () => {
  it("covers every operation of the registry", () => {
    expect(v1Operations.length).toBe(17);
    expect(new Set(v1Operations.map((operation) => operation.scope)).size).toBe(6);
  });

  const presets = Object.keys(scopePresets) as ScopePreset[];
  for (const preset of presets) {
    it(`${preset} preset: allowed exactly on the operations of its scopes`, async () => {
      const account = await createTestAccount();
      const key = await createTestKey(account.accountId, { preset });
      const scopes: readonly string[] = scopePresets[preset];
      for (const operation of v1Operations) {
        const { path, method, body } = requestFor(operation);
        const reply = await api(path, { key: key.key, method, body });
        if (scopes.includes(operation.scope)) {
          expect(errorCodeOf(reply), `${preset} ${method} ${path}: ${JSON.stringify(reply.body)}`).not.toBe("ERR1003");
          expect(reply.status, `${preset} ${method} ${path}`).toBeLessThan(500);
        } else {
          const error = expectError(reply, "ERR1003");
          expect(error.details.required_scope).toBe(operation.scope);
        }
      }
    });
  }

  it("Generate Only refuses GET /v1/status (it lacks account:read)", async () => {
    const account = await createTestAccount();
    const key = await createTestKey(account.accountId, { preset: "generate" });
    expectError(await api("/v1/status", { key: key.key }), "ERR1003");
  });

  it("a custom scope set is honoured", async () => {
    const account = await createTestAccount();
    const key = await createTestKey(account.accountId, { scopes: ["health:read"] });
    expect((await api("/v1/health/cache", { key: key.key })).status).toBe(200);
    expectError(await api("/v1/library/models", { key: key.key }), "ERR1003");
  });
});
