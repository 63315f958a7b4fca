import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { changePlan } from "@/server/accounts/change-plan";
import { createAccount, type CreateAccountInput } from "@/server/accounts/create-account";
import { getBalance } from "@/server/ledger/get-balance";
import { db, disconnectDb } from "@/server/base/db";
import { inTransaction } from "@/server/base/transaction";
import { expectApiError } from "@/tests/support/api-error";

// Accounts against real PostgreSQL: the user found or created by e-mail, the primary owner, the
// default alert threshold and the welcome credit once per user.

const email = () => `Account-${randomUUID()}@Example.test`;
const create = (input: CreateAccountInput) => inTransaction((tx) => createAccount(tx, input), { maxWait: 30_000, timeout: 30_000 });

afterAll(async () => {
  await disconnectDb();
});

describe("createAccount", () => {
  it("creates the user (lowercased), the account, a primary owner, the 0.50 threshold and the welcome credit", async () => {
    const address = email();
    const { account_id, user_id } = await create({ email: `  ${address} ` });

    const user = await db.user.findUniqueOrThrow({ where: { id: user_id } });
    expect(user.email).toBe(address.toLowerCase());
    expect(user.welcomeCreditGrantedAt).toBeInstanceOf(Date);

    const account = await db.account.findUniqueOrThrow({ where: { id: account_id } });
    expect(account).toMatchObject({
      email: address.toLowerCase(),
      name: address.toLowerCase().split("@")[0],
      plan: "free",
      region: "us",
      isPersonal: true,
    });
    expect(account.creditBalance.toFixed(3)).toBe("1.000");

    expect(await db.membership.findMany({ where: { accountId: account_id }, select: { userId: true, role: true } })).toEqual([
      { userId: user_id, role: "primary_owner" },
    ]);

    const thresholds = await db.alertThreshold.findMany({ where: { accountId: account_id } });
    expect(thresholds).toHaveLength(1);
    expect(thresholds[0]!.amount.toFixed(3)).toBe("0.500");
    expect(thresholds[0]!.armed).toBe(true);

    const ledger = await db.ledgerEntry.findMany({ where: { accountId: account_id } });
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({ type: "add", sourceKey: `welcome:${user_id}` });
    expect(ledger[0]!.amount.toFixed(3)).toBe("1.000");

    const actions = (await db.activityEvent.findMany({ where: { accountId: account_id }, select: { action: true, actor: true } }))
      .map((e) => `${e.actor}:${e.action}`)
      .sort();
    expect(actions).toEqual(["system:account.created", "system:credit.added"]);
  });

  it("gives the welcome credit once per user: a second account gets none", async () => {
    const address = email();
    const first = await create({ email: address, name: "Personal" });
    const second = await create({ email: address.toUpperCase(), name: "Team", plan: "pro", region: "eu" });
    expect(second.user_id).toBe(first.user_id);
    expect(second.account_id).not.toBe(first.account_id);

    expect(await getBalance(db, first.account_id)).toBe(1000);
    expect(await getBalance(db, second.account_id)).toBe(0);
    expect(await db.ledgerEntry.count({ where: { accountId: second.account_id } })).toBe(0);
    expect(await db.ledgerEntry.count({ where: { sourceKey: `welcome:${first.user_id}` } })).toBe(1);
    expect(await db.account.findUniqueOrThrow({ where: { id: second.account_id } })).toMatchObject({
      name: "Team",
      plan: "pro",
      region: "eu",
    });
    // The second account still gets its own threshold and primary owner.
    expect(await db.alertThreshold.count({ where: { accountId: second.account_id } })).toBe(1);
    expect(await db.membership.count({ where: { accountId: second.account_id, role: "primary_owner" } })).toBe(1);
  });

  it("a user created elsewhere (sign-in) gets the welcome credit with the first account", async () => {
    const user = await db.user.create({ data: { email: email().toLowerCase() } });
    const { user_id, account_id } = await create({ email: user.email });
    expect(user_id).toBe(user.id);
    expect(await getBalance(db, account_id)).toBe(1000);
  });

  it("concurrent sign-ups of one e-mail make one user and one welcome credit", async () => {
    const address = email();
    const results = await Promise.all(Array.from({ length: 6 }, () => create({ email: address })));
    expect(new Set(results.map((r) => r.user_id)).size).toBe(1);
    expect(new Set(results.map((r) => r.account_id)).size).toBe(6);
    expect(await db.ledgerEntry.count({ where: { sourceKey: `welcome:${results[0]!.user_id}` } })).toBe(1);
    const balances = await Promise.all(results.map((r) => getBalance(db, r.account_id)));
    expect(balances.sort()).toEqual([0, 0, 0, 0, 0, 1000]);
  });

  it("adds initial operator credits as a separate add entry", async () => {
    const { account_id } = await create({ email: email(), credits: 2500 });
    expect(await getBalance(db, account_id)).toBe(3500);
    const adds = await db.ledgerEntry.findMany({ where: { accountId: account_id, type: "add" }, orderBy: { createdAt: "asc" } });
    expect(adds.map((entry) => entry.sourceKey?.split(":")[0]).sort()).toEqual(["operator", "welcome"]);
    const operator = adds.find((entry) => entry.sourceKey?.startsWith("operator:"))!;
    expect(operator.sourceKey).toMatch(/^operator:[0-9a-f-]{36}$/);
    expect(operator.amount.toFixed(3)).toBe("2.500");
  });

  it("refuses a bad e-mail, plan, region, name or credit amount, writing nothing", async () => {
    const usersBefore = await db.user.count();
    await expectApiError(create({ email: "not-an-email" }), "ERR1001");
    await expectApiError(create({ email: email(), plan: "platinum" }), "ERR1001");
    await expectApiError(create({ email: email(), region: "mars" }), "ERR1001");
    await expectApiError(create({ email: email(), name: "x".repeat(101) }), "ERR1001");
    await expectApiError(create({ email: email(), credits: 0 }), "ERR1001");
    await expectApiError(create({ email: email(), credits: -5 }), "ERR1001");
    await expectApiError(create({ email: email(), credits: 1.5 }), "ERR1001");
    // Other suites may add users meanwhile; none of ours exists.
    expect(await db.user.count()).toBeGreaterThanOrEqual(usersBefore);
    expect(await db.user.count({ where: { email: "not-an-email" } })).toBe(0);
  });
});

describe("changePlan", () => {
  it("changes the plan and records it", async () => {
    const { account_id } = await create({ email: email() });
    const result = await inTransaction((tx) => changePlan(tx, { accountId: account_id, plan: "scale" }));
    expect(result).toEqual({ account_id, plan: "scale", previous_plan: "free" });
    expect((await db.account.findUniqueOrThrow({ where: { id: account_id } })).plan).toBe("scale");
    const events = await db.activityEvent.findMany({ where: { accountId: account_id, action: "account.plan_changed" } });
    expect(events).toHaveLength(1);
    expect(events[0]!.metadata).toEqual({ previous_plan: "free", plan: "scale" });

    // The same plan again changes nothing.
    await inTransaction((tx) => changePlan(tx, { accountId: account_id, plan: "scale" }));
    expect(await db.activityEvent.count({ where: { accountId: account_id, action: "account.plan_changed" } })).toBe(1);
  });

  it("refuses unknown plans (ERR1001) and unknown accounts (ERR1006)", async () => {
    const { account_id } = await create({ email: email() });
    await expectApiError(
      inTransaction((tx) => changePlan(tx, { accountId: account_id, plan: "gold" })),
      "ERR1001",
    );
    await expectApiError(
      inTransaction((tx) => changePlan(tx, { accountId: randomUUID(), plan: "pro" })),
      "ERR1006",
    );
    await expectApiError(
      inTransaction((tx) => changePlan(tx, { accountId: "nope", plan: "pro" })),
      "ERR1006",
    );
    expect((await db.account.findUniqueOrThrow({ where: { id: account_id } })).plan).toBe("free");
  });
});
