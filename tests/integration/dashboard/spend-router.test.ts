import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/server/base/db";
import { createCaller } from "@/tests/support/dashboard-caller";
import { addTeamMember, createTestAccount } from "@/tests/support/fixtures";
import { expectTrpcError, expectTrpcInvalid } from "@/tests/support/trpc-errors";

// The dashboard's spend router (and the key create's limit) through createCaller: members read
// budgets, owners set or clear a key's limit, only the primary owner the account's monthly limit;
// another account's key does not exist; bad amounts are ERR1001.

afterAll(disconnectDb);

const caller = (userId: string | null) => createCaller({ userId });

async function team() {
  const { accountId, userId: primaryOwner } = await createTestAccount();
  const owner = await addTeamMember(accountId, "owner");
  const member = await addTeamMember(accountId, "member");
  const key = await caller(primaryOwner).keys.create({ accountId, name: "capped", preset: "full", spendLimit: "1.5", spendPeriod: "week" });
  return { accountId, primaryOwner, owner, member, keyId: key.apikey_id };
}

describe("spend router", () => {
  it("the key create takes a limit; members read every key's budget", async () => {
    const { accountId, member, keyId } = await team();
    const reader = caller(member).spend;
    expect(await reader.key({ accountId, keyId })).toMatchObject({
      apikey_id: keyId,
      spend_limit: 1.5,
      spend_period: "week",
      spend_used: 0,
    });
    expect(Object.keys(await reader.keys({ accountId }))).toEqual([keyId]);
    expect(await reader.account({ accountId })).toMatchObject({ account_id: accountId, monthly_spend_limit: null, spend_used: 0 });
  });

  it("owners set and clear a key's limit; members get ERR1003 and change nothing", async () => {
    const { accountId, owner, member, keyId } = await team();
    await expectTrpcError(caller(member).spend.setKeyLimit({ accountId, keyId, spendLimit: "9" }), "ERR1003");
    await expectTrpcError(caller(null).spend.setKeyLimit({ accountId, keyId, spendLimit: "9" }), "ERR1002");
    expect(await caller(owner).spend.setKeyLimit({ accountId, keyId, spendLimit: "2.25", spendPeriod: "day" })).toMatchObject({
      spend_limit: 2.25,
      spend_period: "day",
    });
    expect(await caller(owner).spend.setKeyLimit({ accountId, keyId, spendLimit: null })).toMatchObject({
      spend_limit: null,
      spend_period: null,
      spend_resets_at: null,
    });
    await expectTrpcInvalid(caller(owner).spend.setKeyLimit({ accountId, keyId, spendLimit: "1.2345" }), "spend_limit");
    await expectTrpcError(caller(owner).spend.setKeyLimit({ accountId, keyId: randomUUID(), spendLimit: "1" }), "ERR1006");
    await expectTrpcInvalid(caller(owner).keys.create({ accountId, name: "bad", spendLimit: "-3" }), "spend_limit");
  });

  it("another account's key is ERR1006", async () => {
    const { accountId: otherAccount, primaryOwner: stranger } = await team();
    const { keyId } = await team();
    await expectTrpcError(caller(stranger).spend.setKeyLimit({ accountId: otherAccount, keyId, spendLimit: "1" }), "ERR1006");
    await expectTrpcError(caller(stranger).spend.key({ accountId: otherAccount, keyId }), "ERR1006");
  });

  it("only the primary owner sets the account's monthly limit", async () => {
    const { accountId, primaryOwner, owner, member } = await team();
    await expectTrpcError(caller(owner).spend.setAccountLimit({ accountId, monthlySpendLimit: "10" }), "ERR1003");
    await expectTrpcError(caller(member).spend.setAccountLimit({ accountId, monthlySpendLimit: "10" }), "ERR1003");
    expect(await caller(primaryOwner).spend.setAccountLimit({ accountId, monthlySpendLimit: "10" })).toMatchObject({
      monthly_spend_limit: 10,
    });
    expect(await caller(member).spend.account({ accountId })).toMatchObject({ monthly_spend_limit: 10 });
    expect(await caller(primaryOwner).spend.setAccountLimit({ accountId, monthlySpendLimit: null })).toMatchObject({
      monthly_spend_limit: null,
    });
    expect(
      await db.activityEvent.count({ where: { accountId, action: { in: ["account.spend_limit_set", "account.spend_limit_cleared"] } } }),
    ).toBe(2);
  });
});
