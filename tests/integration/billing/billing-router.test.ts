import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { createCaller } from "@/tests/support/dashboard-caller";
import { addCredits } from "@/server/credits/add-credits";
import { db, disconnectDb } from "@/server/base/db";
import { resetEnvCache } from "@/server/base/env";
import { inTransaction } from "@/server/base/transaction";
import { addTeamMember, createTestAccount } from "@/tests/support/fixtures";
import { expectEveryRowOnce, readEveryPage } from "@/tests/support/cursor-pages";
import { expectTrpcInvalid, trpcFailure } from "@/tests/support/trpc-errors";

// The billing router per role: everyone in the account reads plan, catalog, orders and ledger;
// only the primary owner starts Checkout or opens the portal (ERR1003 for the others, ERR1006
// for another account). Without Stripe keys the reads still work and purchases say why not.

afterAll(() => disconnectDb());

const as = (userId: string) => createCaller({ userId });

const refusal = async (promise: Promise<unknown>) => (await trpcFailure(promise)).apiError;

async function team() {
  const { accountId, userId: primaryOwner } = await createTestAccount({ plan: "free" });
  return { accountId, primaryOwner, owner: await addTeamMember(accountId, "owner"), member: await addTeamMember(accountId, "member") };
}

describe("billing router", () => {
  it("lets only the primary owner buy: owners and members get ERR1003 for Checkout, packs and the portal", async () => {
    const { accountId, primaryOwner, owner, member } = await team();
    for (const userId of [owner, member]) {
      expect((await refusal(as(userId).billing.startCheckout({ accountId, plan: "pro", interval: "month" }))).code).toBe("ERR1003");
      expect((await refusal(as(userId).billing.buyPack({ accountId, credits: 10 }))).code).toBe("ERR1003");
      expect((await refusal(as(userId).billing.openPortal({ accountId }))).code).toBe("ERR1003");
      const view = await as(userId).billing.overview({ accountId });
      expect(view.canPurchase).toBe(false);
      expect(view.readOnlyReason).toMatch(/Only the primary owner/);
    }
    const view = await as(primaryOwner).billing.overview({ accountId });
    expect(view).toMatchObject({ configured: true, canPurchase: true, readOnlyReason: null, managedBy: null, hasStripeCustomer: false });
    expect(view.summary).toMatchObject({ billing_plan: "free", billing_subscription_status: "none" });
    expect(await db.order.count({ where: { accountId } })).toBe(0);
  });

  it("answers ERR1006 for an account the user is not in", async () => {
    const mine = await createTestAccount({ plan: "free" });
    const theirs = await createTestAccount({ plan: "free" });
    expect((await refusal(as(mine.userId).billing.overview({ accountId: theirs.accountId }))).code).toBe("ERR1006");
    expect(
      (await refusal(as(mine.userId).billing.startCheckout({ accountId: theirs.accountId, plan: "pro", interval: "month" }))).code,
    ).toBe("ERR1006");
  });

  it("refuses a plan or pack the catalog does not sell (ERR1001)", async () => {
    const { accountId, userId } = await createTestAccount({ plan: "free" });
    expect((await refusal(as(userId).billing.startCheckout({ accountId, plan: "free" as never, interval: "month" }))).code).toBe("ERR1001");
    expect((await refusal(as(userId).billing.buyPack({ accountId, credits: 7 as never }))).code).toBe("ERR1001");
  });

  it("shows the catalog with Stripe's prices, found by lookup key", async () => {
    const { accountId, userId } = await createTestAccount({ plan: "free" });
    const catalog = await as(userId).billing.catalog({ accountId });
    const pro = catalog.plans.find((entry) => entry.plan === "pro")!;
    expect(pro.intervals).toEqual([
      { interval: "month", credits: "29", price: { lookupKey: "darkroom_pro_month", amountCents: 2900, currency: "usd", available: true } },
      { interval: "year", credits: "290", price: { lookupKey: "darkroom_pro_year", amountCents: 29000, currency: "usd", available: true } },
    ]);
    expect(catalog.packs.map((pack) => [pack.credits, pack.price.amountCents])).toEqual([
      [10, 1000],
      [25, 2500],
      [50, 5000],
      [100, 10000],
      [500, 50000],
      [1000, 100000],
    ]);
  });

  it("pages the ledger newest first by cursor and filters it by type", async () => {
    const { accountId } = await createTestAccount({ plan: "free" });
    for (let index = 1; index <= 3; index++) {
      await inTransaction((tx) =>
        addCredits(tx, {
          accountId,
          amountMillis: index * 1000,
          sourceKey: `operator:test-${accountId}-${index}`,
          description: `grant ${index}`,
        }),
      );
    }
    const member = await addTeamMember(accountId, "member");
    const first = await as(member).billing.ledger({ accountId, type: "add", limit: 2 });
    expect(first).not.toHaveProperty("total");
    expect(first.limit).toBe(2);
    expect(first.items.map((entry) => entry.description)).toEqual(["grant 3", "grant 2"]);
    const second = await as(member).billing.ledger({ accountId, type: "add", limit: 2, cursor: first.next_cursor ?? undefined });
    expect(second.items[0]!.description).toBe("grant 1");
    expect(second.items[0]).toMatchObject({ type: "add", amount: "1.000" });
    expect((await as(member).billing.ledger({ accountId, type: "reserve" })).items).toEqual([]);
    expect(await as(member).billing.orders({ accountId })).toEqual({ items: [], next_cursor: null, limit: 25 });
  });

  it("covers every ledger entry and order exactly once, with ties on created_at and rows arriving between pages", async () => {
    const { accountId } = await createTestAccount({ plan: "free" });
    const member = await addTeamMember(accountId, "member");
    const at = (minutesAgo: number) => new Date(Date.now() - 3_600_000 - minutesAgo * 60_000);
    // Seven entries, three of them in one millisecond, and six orders, three in one millisecond.
    for (const [index, minutesAgo] of [1, 2, 2, 2, 3, 4, 5].entries())
      await db.ledgerEntry.create({
        data: {
          accountId,
          type: index % 2 ? "reserve" : "refund",
          amount: "0.010",
          balanceAfter: "1.000",
          generationId: randomUUID(),
          description: `entry ${index}`,
          createdAt: at(minutesAgo),
        },
      });
    for (const minutesAgo of [1, 3, 3, 3, 4, 6])
      await db.order.create({ data: { accountId, credits: "10", amountCents: 1000, createdAt: at(minutesAgo) } });
    const caller = as(member).billing;

    for (const type of [undefined, "reserve" as const]) {
      const expected = (await caller.ledger({ accountId, type, limit: 100 })).items.map((entry) => entry.id);
      expect(expected.length).toBeGreaterThanOrEqual(type ? 3 : 7);
      const read = await readEveryPage(
        (cursor) => caller.ledger({ accountId, type, limit: 2, cursor }),
        (page) => ({ ids: page.items.map((entry) => entry.id), next: page.next_cursor }),
        // Entries written now are newer than every page read so far: they never show up in the later ones.
        () =>
          inTransaction((tx) =>
            addCredits(tx, { accountId, amountMillis: 1000, sourceKey: `operator:${randomUUID()}`, description: "late" }),
          ),
      );
      expectEveryRowOnce(read, expected, 2);
    }

    const expectedOrders = (await caller.orders({ accountId, limit: 100 })).items.map((order) => order.id);
    expect(expectedOrders).toHaveLength(6);
    const orders = await readEveryPage(
      (cursor) => caller.orders({ accountId, limit: 2, cursor }),
      (page) => ({ ids: page.items.map((order) => order.id), next: page.next_cursor }),
      () => db.order.create({ data: { accountId, credits: "10", amountCents: 1000 } }),
    );
    expectEveryRowOnce(orders, expectedOrders, 2);
  });

  it("refuses a cursor it did not give out and a limit outside 1..100 (ERR1001); another account's cursor shows only the caller's rows", async () => {
    const { accountId, userId } = await createTestAccount({ plan: "free" });
    const caller = as(userId).billing;
    for (const cursor of ["not-a-cursor", "x".repeat(201)]) {
      await expectTrpcInvalid(caller.ledger({ accountId, cursor }), "cursor");
      await expectTrpcInvalid(caller.orders({ accountId, cursor }), "cursor");
    }
    for (const limit of [0, 101]) {
      await expectTrpcInvalid(caller.ledger({ accountId, limit }), "limit");
      await expectTrpcInvalid(caller.orders({ accountId, limit }), "limit");
    }
    const other = await createTestAccount({ plan: "free" });
    for (let index = 0; index < 2; index++)
      await inTransaction((tx) =>
        addCredits(tx, { accountId: other.accountId, amountMillis: 1000, sourceKey: `operator:${randomUUID()}`, description: "theirs" }),
      );
    const theirs = await as(other.userId).billing.ledger({ accountId: other.accountId, limit: 1 });
    expect(theirs.next_cursor).not.toBeNull();
    const mine = await caller.ledger({ accountId, cursor: theirs.next_cursor ?? undefined, limit: 100 });
    expect(mine.items.every((entry) => entry.description !== "theirs")).toBe(true);
    expect((await refusal(as(userId).billing.ledger({ accountId: other.accountId }))).code).toBe("ERR1006");
  });

  it("without Stripe keys: reads work, the catalog is for reference, purchases explain how credits are granted", async () => {
    const { accountId, userId } = await createTestAccount({ plan: "free" });
    const saved = process.env.STRIPE_SECRET_KEY;
    delete process.env.STRIPE_SECRET_KEY;
    resetEnvCache();
    try {
      expect((await as(userId).billing.overview({ accountId })).configured).toBe(false);
      const catalog = await as(userId).billing.catalog({ accountId });
      expect(catalog.configured).toBe(false);
      expect(catalog.plans.flatMap((plan) => plan.intervals).every((entry) => !entry.price.available)).toBe(true);
      const refused = await refusal(as(userId).billing.startCheckout({ accountId, plan: "pro", interval: "month" }));
      expect(refused.code).toBe("ERR1001");
      expect(refused.message).toMatch(/not configured.*credits:add/);
      expect((await refusal(as(userId).billing.openPortal({ accountId }))).code).toBe("ERR1001");
    } finally {
      process.env.STRIPE_SECRET_KEY = saved;
      resetEnvCache();
    }
  });
});
