import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/server/base/db";
import { cli } from "@/tests/support/cli";

// The spend commands as operators run them (a process per command, one JSON object on stdout,
// exit 0, or 2 with ERR1001 / ERR1006 on bad input).

let accountId = "";

beforeAll(async () => {
  const created = await cli(["account:create", "--email", `spend-cli-${randomUUID()}@example.test`, "--plan", "pro"]);
  expect(created.code).toBe(0);
  accountId = created.body.account_id;
}, 120_000);

afterAll(async () => {
  await disconnectDb();
});

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe("cli: spend limits", () => {
  it("key:create --spend-limit --spend-period, then key:limit changes, reads with --now and clears it", async () => {
    const created = await cli([
      "key:create",
      "--account",
      accountId,
      "--name",
      "capped",
      "--spend-limit",
      "12.345",
      "--spend-period",
      "week",
    ]);
    expect(created.code).toBe(0);
    expect(created.body).toMatchObject({
      apikey_id: expect.any(String),
      key: expect.stringMatching(/^dkr_/),
      spend_limit: 12.345,
      spend_period: "week",
      spend_used: 0,
    });
    expect(created.body.spend_resets_at).toMatch(ISO);
    expect(new Date(created.body.spend_resets_at).getUTCDay()).toBe(1);
    const keyId = created.body.apikey_id;

    const changed = await cli([
      "key:limit",
      "--key-id",
      keyId,
      "--spend-limit",
      "5",
      "--spend-period",
      "day",
      "--now",
      "2031-03-05T10:00:00Z",
    ]);
    expect(changed.code).toBe(0);
    expect(changed.body).toEqual({
      apikey_id: keyId,
      spend_limit: 5,
      spend_period: "day",
      spend_used: 0,
      spend_resets_at: "2031-03-06T00:00:00.000Z",
    });

    // The period is kept when only the amount changes.
    const amount = await cli(["key:limit", "--key-id", keyId, "--spend-limit", "0.5", "--now", "2031-03-09T10:00:00Z"]);
    expect(amount.body).toEqual({
      apikey_id: keyId,
      spend_limit: 0.5,
      spend_period: "day",
      spend_used: 0,
      spend_resets_at: "2031-03-10T00:00:00.000Z",
    });
    const total = await cli(["key:limit", "--key-id", keyId, "--spend-limit", "7", "--spend-period", "total"]);
    expect(total.body).toMatchObject({ spend_limit: 7, spend_period: "total", spend_resets_at: null });

    const cleared = await cli(["key:limit", "--key-id", keyId, "--spend-limit", "none"]);
    expect(cleared.code).toBe(0);
    expect(cleared.body).toEqual({ apikey_id: keyId, spend_limit: null, spend_period: null, spend_used: 0, spend_resets_at: null });
    expect(await db.apiKey.findUniqueOrThrow({ where: { id: keyId }, select: { spendLimit: true, spendPeriod: true } })).toEqual({
      spendLimit: null,
      spendPeriod: null,
    });
    expect(
      await db.activityEvent.count({ where: { accountId, action: { in: ["api_key.spend_limit_set", "api_key.spend_limit_cleared"] } } }),
    ).toBe(4);
  }, 300_000);

  it("account:limit sets and clears the monthly limit", async () => {
    const set = await cli(["account:limit", "--account", accountId, "--monthly-spend-limit", "250.5", "--now", "2031-02-14T00:00:00Z"]);
    expect(set.code).toBe(0);
    expect(set.body).toEqual({
      account_id: accountId,
      monthly_spend_limit: 250.5,
      spend_used: 0,
      spend_resets_at: "2031-03-01T00:00:00.000Z",
    });
    const cleared = await cli(["account:limit", "--account", accountId, "--monthly-spend-limit", "none"]);
    expect(cleared.code).toBe(0);
    expect(cleared.body).toMatchObject({ account_id: accountId, monthly_spend_limit: null, spend_used: 0 });
    expect(cleared.body.spend_resets_at).toMatch(ISO);
  }, 180_000);

  it("bad input is ERR1001 and unknown ids ERR1006, exit 2, writing nothing", async () => {
    const key = await cli(["key:create", "--account", accountId]);
    const keyId = key.body.apikey_id;
    const refusals: Array<[string[], string, string?]> = [
      [["key:limit", "--key-id", keyId, "--spend-limit", "-1"], "ERR1001", "spend-limit"],
      [["key:limit", "--key-id", keyId, "--spend-limit", "1.2345"], "ERR1001", "spend-limit"],
      [["key:limit", "--key-id", keyId, "--spend-limit", "ten"], "ERR1001", "spend-limit"],
      [["key:limit", "--key-id", keyId, "--spend-limit", "1", "--spend-period", "year"], "ERR1001", "spend-period"],
      [["key:limit", "--key-id", keyId, "--spend-limit", "none", "--spend-period", "day"], "ERR1001", "spend-period"],
      [["key:limit", "--key-id", keyId], "ERR1001", "spend-limit"],
      [["key:limit", "--key-id", "nope", "--spend-limit", "1"], "ERR1001", "key-id"],
      [["key:create", "--account", accountId, "--spend-period", "day"], "ERR1001", "spend-limit"],
      [["account:limit", "--account", accountId, "--monthly-spend-limit", "lots"], "ERR1001", "monthly-spend-limit"],
      [["key:limit", "--key-id", randomUUID(), "--spend-limit", "1"], "ERR1006"],
      [["account:limit", "--account", randomUUID(), "--monthly-spend-limit", "1"], "ERR1006"],
    ];
    // A few at a time: each is a Node process booting the app's modules.
    const runs = [];
    for (let index = 0; index < refusals.length; index += 3)
      runs.push(...(await Promise.all(refusals.slice(index, index + 3).map(([args]) => cli(args)))));
    runs.forEach((run, index) => {
      const [args, code, field] = refusals[index]!;
      expect(run.code, args.join(" ")).toBe(2);
      expect(run.body.error.code, args.join(" ")).toBe(code);
      if (field) expect(JSON.stringify(run.body.error.details), args.join(" ")).toContain(field);
    });
    expect(await db.apiKey.findUniqueOrThrow({ where: { id: keyId }, select: { spendLimit: true } })).toEqual({ spendLimit: null });
    expect(await db.account.findUniqueOrThrow({ where: { id: accountId }, select: { monthlySpendLimit: true } })).toEqual({
      monthlySpendLimit: null,
    });
  }, 300_000);
});
