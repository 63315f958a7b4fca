import { afterAll, describe, expect, it } from "vitest";
import { accountScope } from "@/server/base/account-scope";
import { db, disconnectDb } from "@/server/base/db";
import { planLimits, planNames } from "@/server/plans/plan-limits";
import { listLoggedEndpoints } from "@/server/request-logs/list-logged-endpoints";
import { listRequestLogs } from "@/server/request-logs/list-request-logs";
import { createTestAccount, createTestKey } from "@/tests/support/fixtures";
import { seedRequestLogs } from "@/tests/support/request-logs";

// Reads never show a row older than the account's plan window (spec §8: 1 day to 1 year), to the
// second, whatever retention has not deleted yet: a row exactly one window old is shown (retention
// keeps it too), one a second older is not, nor is its endpoint offered in the filter.

afterAll(disconnectDb);

const now = new Date("2026-12-02T12:00:00.000Z");

describe("the request log's plan window", () => {
  for (const plan of planNames) {
    it(`${plan}: shows rows up to exactly ${planLimits[plan].retention.requestLogs} s old, not one a second older`, async () => {
      const { accountId } = await createTestAccount({ plan });
      const key = await createTestKey(accountId, { name: "window" });
      const windowMs = planLimits[plan].retention.requestLogs * 1000;
      const at = (ms: number) => new Date(now.getTime() - windowMs + ms);
      const row = (createdAt: Date, endpoint: string) => ({
        accountId,
        apiKeyId: key.apikey_id,
        keyName: key.apikey_name,
        keyPrefix: key.apikey_prefix,
        createdAt,
        endpoint,
      });
      const [inside, boundary, outside, longBefore] = await seedRequestLogs([
        row(at(1000), "/v1/status"),
        row(at(0), "/v1/usage"),
        row(at(-1000), "/v1/usage"),
        row(at(-120_000), "/v1/content/list"),
      ]);
      const ids = async (filters: Parameters<typeof listRequestLogs>[2] = {}) =>
        (await listRequestLogs(db, accountScope(accountId), filters, { now })).data.map((entry) => entry.request_log_id);

      expect(await ids()).toEqual([inside, boundary]);
      expect(await ids({ keyId: key.apikey_id })).toEqual([inside, boundary]);
      // A range reaching further back is cut at the window.
      expect(await ids({ from: at(-3_600_000), endpoint: "/v1/usage" })).toEqual([boundary]);
      expect(await ids({ from: at(-3_600_000), to: at(500) })).toEqual([boundary]);
      expect(await listLoggedEndpoints(db, accountScope(accountId), now)).toEqual(["/v1/status", "/v1/usage"]);
      // The rows are still there, for retention to delete: only reads stop at the window.
      expect(await db.requestLog.count({ where: { id: { in: [outside!, longBefore!] } } })).toBe(2);
    });
  }

  it("moves with the account's plan: a downgrade shortens what is shown at once", async () => {
    const { accountId } = await createTestAccount({ plan: "pro" });
    const [tenDaysOld] = await seedRequestLogs([{ accountId, createdAt: new Date(now.getTime() - 10 * 86_400_000) }]);
    expect((await listRequestLogs(db, accountScope(accountId), {}, { now })).data.map((entry) => entry.request_log_id)).toEqual([
      tenDaysOld,
    ]);
    await db.account.update({ where: { id: accountId }, data: { plan: "starter" } });
    expect((await listRequestLogs(db, accountScope(accountId), {}, { now })).data).toEqual([]);
  });
});
