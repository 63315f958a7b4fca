import { createHash } from "node:crypto";
import { hashClientIp } from "@/server/base/net/client-ip-hash";
import { describe, expect, it } from "vitest";
import { db } from "@/server/base/db";
import { api, expectError, expectSuccess, requestIdOf } from "@/tests/support/http";
import { accountWithKey, createTestKey } from "@/tests/support/fixtures";
import { afterLaterRequestLogged, whenLogged } from "@/tests/support/request-logs";

// The request log: what is kept, and what never is (raw IPs, raw keys, bodies).

describe("request log", () => {
  it("records each request with its documented fields, a hashed IP and a sanitized query", async () => {
    const { key, keyId, prefix, accountId } = await accountWithKey();
    const before = await db.apiKey.findUniqueOrThrow({ where: { id: keyId } });
    expect(before.lastUsedAt).toBeNull();

    const reply = await api("/v1/usage?days=7&api_key=should-not-be-kept&token=abc", {
      key,
      headers: { "x-forwarded-for": "198.51.100.23", "user-agent": "darkroom-tests/1.0" },
    });
    const requestId = requestIdOf(reply);
    expectSuccess(reply);

    const row = await whenLogged(() => db.requestLog.findFirst({ where: { requestId } }));
    expect(row).toMatchObject({
      accountId,
      apiKeyId: keyId,
      keyName: "test key",
      keyPrefix: prefix,
      keyStatus: "active",
      method: "GET",
      endpoint: "/v1/usage",
      statusCode: 200,
      errorCode: null,
      idempotentReplay: false,
      userAgent: "darkroom-tests/1.0",
      // An HMAC under the app's AUTH_SECRET (npm test gives both the same), not a plain hash anyone
      // could reverse by hashing every IPv4 address.
      ipHash: hashClientIp("198.51.100.23"),
    });
    expect(row.ipHash).not.toBe(createHash("sha256").update("198.51.100.23").digest("hex"));
    expect(prefix).toHaveLength(9);
    expect(row.query).toEqual({ days: "7", api_key: "[redacted]", token: "[redacted]" });
    const stored = JSON.stringify(row);
    expect(stored).not.toContain("198.51.100.23");
    expect(stored).not.toContain(key);
    expect(stored).not.toContain("should-not-be-kept");

    const after = await whenLogged(() => db.apiKey.findFirst({ where: { id: keyId, lastUsedAt: { not: null } } }));
    expect(after.lastUsedAt!.getTime()).toBeGreaterThanOrEqual(row.createdAt.getTime() - 1);
  });

  it("records refused requests of a known key with their error code", async () => {
    const { accountId } = await accountWithKey();
    const monitor = await createTestKey(accountId, { preset: "monitor", name: "monitor key" });
    const reply = await api("/v1/status", { key: monitor.key });
    expectError(reply, "ERR1003");
    const row = await whenLogged(() => db.requestLog.findFirst({ where: { requestId: requestIdOf(reply) } }));
    expect(row).toMatchObject({
      apiKeyId: monitor.apikey_id,
      keyName: "monitor key",
      statusCode: 403,
      errorCode: "ERR1003",
      endpoint: "/v1/status",
    });
  });

  it("keeps no row for a key that does not exist", async () => {
    const reply = await api("/v1/status", { key: `dkr_${"Z".repeat(40)}` });
    expect(reply.status).toBe(401);
    await afterLaterRequestLogged((await accountWithKey()).key);
    expect(await db.requestLog.count({ where: { requestId: requestIdOf(reply) } })).toBe(0);
  });

  it("logs legacy paths under the modern endpoint", async () => {
    const { key } = await accountWithKey();
    const reply = await api("/api/v1/user/account", { key });
    expectSuccess(reply);
    const row = await whenLogged(() => db.requestLog.findFirst({ where: { requestId: requestIdOf(reply) } }));
    expect(row.endpoint).toBe("/v1/user/account");
  });
});
