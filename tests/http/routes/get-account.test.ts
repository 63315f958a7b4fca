import { describe, expect, it } from "vitest";
import { getAccount } from "@/server/edge/http/operations/account";
import { accountWithKey } from "@/tests/support/fixtures";
import { callOperation, expectSuccess, ISO_DATE_TIME } from "@/tests/support/http";

// GET /v1/user/account (getAccount), and its legacy form /v1/data/account.

describe("200", () => {
  it("returns the account profile", async () => {
    const { key, accountId, email } = await accountWithKey();
    const data = expectSuccess(await callOperation(getAccount, { key }));
    expect(Object.keys(data).sort()).toEqual([
      "account_created_at",
      "account_email",
      "account_id",
      "account_is_personal",
      "account_name",
      "account_picture_url",
    ]);
    expect(data).toMatchObject({ account_id: accountId, account_email: email, account_is_personal: true, account_picture_url: null });
    expect(data.account_created_at).toMatch(ISO_DATE_TIME);
  });

  it("serves /v1/data/account like /v1/user/account", async () => {
    const { key, accountId, email } = await accountWithKey();
    const modern = expectSuccess(await callOperation(getAccount, { key }));
    const legacy = expectSuccess(await callOperation(getAccount, { key, path: "/v1/data/account" }));
    expect(legacy).toEqual(modern);
    expect(legacy).toMatchObject({ account_id: accountId, account_email: email });
  });
});
