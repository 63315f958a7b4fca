import { afterAll, describe, expect, it } from "vitest";
import { createCaller } from "@/tests/support/dashboard-caller";
import { apiErrorOf } from "@/tests/support/trpc-api-error";
import { db, disconnectDb } from "@/server/base/db";
import { account as accountOperations } from "@/server/edge/http/operations";
import { accountScope } from "@/server/base/account-scope";
import { getUsage } from "@/server/usage/get-usage";
import { accountWithKey, addTeamMember, createTestAccount } from "@/tests/support/fixtures";
import { createImage, waitForStatus } from "@/tests/support/generations";
import { callOperation, expectSuccess } from "@/tests/support/http";
import { emptyUsage } from "@/tests/support/usage";

// The dashboard's usage router through createCaller: the figures of GET /v1/usage (the same
// function, the same window) plus a per-day series that adds up to them; members read it, other
// accounts see nothing.

afterAll(disconnectDb);

const as = (userId: string | null) => createCaller({ userId }).usage;

const sum = (values: number[]) => Math.round(values.reduce((total, value) => total + value, 0) * 1000) / 1000;

describe("usage router", () => {
  it("gives an account without traffic the empty summary and a zero series of days + 1 UTC days at most", async () => {
    const { accountId, userId } = await createTestAccount();
    for (const days of [1, 7, 30, 90]) {
      const { summary, daily } = await as(userId).summary({ accountId, days });
      expect(summary).toEqual(emptyUsage(accountId, days, 1));
      expect(daily.length).toBeGreaterThanOrEqual(days);
      expect(daily.length).toBeLessThanOrEqual(days + 1);
      expect(daily.every((day) => day.success + day.client_errors + day.server_errors === 0 && day.estimated_cost === 0)).toBe(true);
    }
  });

  it("returns the numbers of the /v1/usage domain function and of the route itself, for the same range", async () => {
    const { accountId, userId, key } = await accountWithKey();
    const { generation_id } = expectSuccess(await createImage(key, { generation_prompt: "usage" }), 202);
    await waitForStatus(key, generation_id, ["succeeded"]);
    // A client error too: an unknown model.
    await createImage(key, { generation_prompt: "nope" }, {}, "darkroom/no-such-model");
    // The request log is written after the response: wait until it holds what was sent.
    await expect
      .poll(async () => (await getUsage(db, accountScope(accountId), { days: 7, region: "us" })).usage_total_client_errors, {
        timeout: 10_000,
      })
      .toBe(1);

    const member = await addTeamMember(accountId, "member");
    for (const days of [1, 7, 30, 90]) {
      const { summary, daily } = await as(member).summary({ accountId, days });
      expect(summary).toEqual(await getUsage(db, accountScope(accountId), { days: days, region: "us" }));
      expect(summary.usage_total_generations).toBe(2 - 1);
      expect(summary.usage_providers.map((provider) => provider.used_count)).toEqual([1]);
      // The bars add up to the totals.
      expect(sum(daily.map((day) => day.success))).toBe(summary.usage_total_success);
      expect(sum(daily.map((day) => day.client_errors))).toBe(summary.usage_total_client_errors);
      expect(sum(daily.map((day) => day.server_errors))).toBe(summary.usage_total_server_errors);
      expect(sum(daily.map((day) => day.estimated_cost))).toBe(summary.usage_total_estimated_cost);
    }

    // What the route answers for the same window (its own request is logged after it answers).
    const before = await as(userId).summary({ accountId, days: 30 });
    const route = expectSuccess(await callOperation(accountOperations.getUsage, { key, query: { days: 30 } }));
    expect(route).toEqual(before.summary);
  });

  it("refuses days outside 1–90 with ERR1001 and another account with ERR1006", async () => {
    const { accountId, userId } = await createTestAccount();
    for (const days of [0, 91, 1.5]) expect((await apiErrorOf(as(userId).summary({ accountId, days }))).code).toBe("ERR1001");
    const other = await createTestAccount();
    expect((await apiErrorOf(as(userId).summary({ accountId: other.accountId, days: 7 }))).code).toBe("ERR1006");
    expect((await apiErrorOf(as(null).summary({ accountId, days: 7 }))).code).toBe("ERR1002");
  });
});
