import http from "node:http";
import { describe, expect, it } from "vitest";
import { OPERATOR } from "@/server/base/account-scope";
import { db } from "@/server/base/db";
import { revokeApiKey } from "@/server/keys/revoke-key";
import { rotateApiKey } from "@/server/keys/rotate-key";
import { deleteApiKey } from "@/server/keys/delete-key";
import { getStatus } from "@/server/edge/http/operations/account";
import { api, baseUrl, callOperation, expectError, expectSuccess } from "@/tests/support/http";
import { accountWithKey, createTestKey } from "@/tests/support/fixtures";
import { inTransaction } from "@/server/base/transaction";
import { whenLogged } from "@/tests/support/request-logs";
import { refusedOnceChangeArrives } from "@/tests/support/key-change";

// Every way a key can fail to authenticate is ERR1002, 401, not retryable, and the same body:
// the client learns nothing about which keys exist. The request log keeps the reason's key.
// A key this process changes after the app has cached it reaches the app's cache by a notice
// just after the commit, so those cases wait for it (at most 1 s) rather than race it.

const refused = (reply: Awaited<ReturnType<typeof api>>) => expectError(reply, "ERR1002");

function getWithHost(path: string, host: string, key: string): Promise<{ status: number; body: { error: { code: string } } }> {
  return new Promise((resolve, reject) => {
    const url = new URL(path, baseUrl());
    const request = http.request(
      { host: url.hostname, port: url.port, path: url.pathname, headers: { host, authorization: `Bearer ${key}` } },
      (response) => {
        let text = "";
        response.on("data", (chunk) => (text += chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    request.on("error", reject);
    request.end();
  });
}

describe("authentication (ERR1002)", () => {
  it("refuses a request with no Authorization header", async () => {
    refused(await api("/v1/status"));
  });

  it("refuses a header that is not a Bearer token", async () => {
    refused(await api("/v1/status", { headers: { authorization: "Basic dXNlcjpwYXNz" } }));
  });

  it("refuses a token that is not shaped like a key", async () => {
    refused(await api("/v1/status", { key: "dkr_short" }));
    refused(await api("/v1/status", { key: "sk_live_0123456789012345678901234567890123456789" }));
  });

  it("refuses a well-formed key that does not exist", async () => {
    refused(await api("/v1/status", { key: `dkr_${"A".repeat(40)}` }));
  });

  it("refuses an expired key", async () => {
    const { accountId } = await accountWithKey();
    const key = await createTestKey(accountId, { expiresAt: new Date(Date.now() + 60_000) });
    expectSuccess(await api("/v1/status", { key: key.key }));
    await db.apiKey.update({ where: { id: key.apikey_id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    refused(await refusedOnceChangeArrives(key.key));
    const logged = await whenLogged(() => db.requestLog.findFirst({ where: { apiKeyId: key.apikey_id, statusCode: 401 } }));
    expect(logged).toMatchObject({ keyStatus: "expired", errorCode: "ERR1002" });
  });

  it("refuses a revoked key", async () => {
    const { key, keyId } = await accountWithKey();
    await inTransaction((tx) => revokeApiKey(tx, OPERATOR, { keyId, actor: "system" }));
    refused(await api("/v1/status", { key }));
  });

  it("refuses a deleted key", async () => {
    const { key, keyId } = await accountWithKey();
    await inTransaction((tx) => deleteApiKey(tx, OPERATOR, { keyId, actor: "system" }));
    refused(await api("/v1/status", { key }));
  });

  it("accepts a rotated key during its grace period and refuses it after", async () => {
    const { key, keyId } = await accountWithKey();
    const rotated = await inTransaction((tx) => rotateApiKey(tx, OPERATOR, { keyId, graceHours: 1, actor: "system" }));
    expectSuccess(await api("/v1/status", { key }));
    expectSuccess(await api("/v1/status", { key: rotated.key }));
    await db.apiKey.update({ where: { id: keyId }, data: { graceEndsAt: new Date(Date.now() - 1000) } });
    refused(await refusedOnceChangeArrives(key));
    expect(expectSuccess(await callOperation(getStatus, { key: rotated.key })).apikey_id).toBe(rotated.apikey_id);
  });

  it("refuses a key on another region's address", async () => {
    const us = await accountWithKey({ region: "us" });
    const eu = await accountWithKey({ region: "eu" });
    const port = new URL(baseUrl()).port;
    expect((await getWithHost("/v1/status", `eu.localhost:${port}`, eu.key)).status).toBe(200);
    const wrong = await getWithHost("/v1/status", `eu.localhost:${port}`, us.key);
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.code).toBe("ERR1002");
    refused(await api("/v1/status", { key: eu.key }));
    const logged = await whenLogged(() => db.requestLog.findFirst({ where: { apiKeyId: eu.keyId, statusCode: 401 } }));
    expect(logged?.errorCode).toBe("ERR1002");
  });

  it("gives every refusal the same message, whatever the reason", async () => {
    const { key, keyId } = await accountWithKey();
    await inTransaction((tx) => revokeApiKey(tx, OPERATOR, { keyId, actor: "system" }));
    const revoked = refused(await api("/v1/status", { key }));
    const unknown = refused(await api("/v1/status", { key: `dkr_${"B".repeat(40)}` }));
    expect(revoked).toEqual(unknown);
  });
});
