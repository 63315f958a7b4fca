import { describe, expect, it } from "vitest";
import { getStatus } from "@/server/edge/http/operations/account";
import { accountWithKey } from "@/tests/support/fixtures";
import { callOperation, expectSuccess, ISO_DATE_TIME } from "@/tests/support/http";

// GET /v1/status (getStatus): the key making the request and its account.

describe("200", () => {
  it("identifies the key and its account", async () => {
    const { key, keyId, accountId, prefix } = await accountWithKey();
    const data = expectSuccess(await callOperation(getStatus, { key }));
    expect(Object.keys(data).sort()).toEqual([
      "account_id",
      "apikey_created_at",
      "apikey_expires_at",
      "apikey_id",
      "apikey_last_used_at",
      "apikey_name",
      "apikey_prefix",
      "apikey_spend_limit",
      "apikey_spend_period",
      "apikey_spend_resets_at",
      "apikey_spend_used",
    ]);
    expect(data).toMatchObject({
      account_id: accountId,
      apikey_id: keyId,
      apikey_name: "test key",
      apikey_prefix: prefix,
      apikey_expires_at: null,
      apikey_spend_limit: null,
      apikey_spend_period: null,
      apikey_spend_used: 0,
      apikey_spend_resets_at: null,
    });
    expect(data.apikey_prefix).toBe(key.slice(0, 9));
    expect(data.apikey_created_at).toMatch(ISO_DATE_TIME);
    expect(data.apikey_last_used_at).toMatch(ISO_DATE_TIME);
  });

  it("serves /api/v1/status like /v1/status", async () => {
    const { key, accountId } = await accountWithKey();
    const data = expectSuccess(await callOperation(getStatus, { key, path: "/api/v1/status" }));
    expect(data.account_id).toBe(accountId);
  });
});
