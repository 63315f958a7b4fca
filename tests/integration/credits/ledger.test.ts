import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { addCredits } from "@/server/credits/add-credits";
import { chargeCredits } from "@/server/credits/charge-credits";
import { getBalance } from "@/server/ledger/get-balance";
import { decimalToMillis, millisToDecimalString } from "@/server/base/money";
import { refundCredits } from "@/server/credits/refund-credits";
import { reserveCredits } from "@/server/credits/reserve-credits";
import { db, disconnectDb } from "@/server/base/db";
import { ApiError } from "@/server/base/error-table";
import { inTransaction } from "@/server/base/transaction";
import { expectApiError } from "@/tests/support/api-error";
import { Prisma } from "@/server/base/generated/prisma/client";

// The ledger against real PostgreSQL: idempotency, exactly-once settlement, the database's own
// refusals (trigger, CHECKs, partial unique indexes) and the account lock under concurrency.
// Every test makes its own accounts; other suites share the database.

const txOptions = { maxWait: 60_000, timeout: 60_000 };

async function newAccount(fundsMillis = 0): Promise<string> {
  const account = await db.account.create({
    data: { name: "ledger test", email: `ledger-${randomUUID()}@test.invalid` },
    select: { id: true },
  });
  if (fundsMillis > 0) {
    await inTransaction((tx) =>
      addCredits(tx, { accountId: account.id, amountMillis: fundsMillis, sourceKey: `test:${randomUUID()}`, description: "test funds" }),
    );
  }
  return account.id;
}

/**
 * A record to hang ledger entries on. `processing`, not `pending`: the shared app's sweeper sends
 * a run for a pending generation with no attempt after 30 s, and 300 of them at once held up
 * every other suite's generations behind their runs (a CI failure).
 */
async function newGeneration(accountId: string): Promise<string> {
  const generation = await db.generation.create({
    data: { accountId, region: "us", mediaKind: "image", status: "processing", modelIdentifier: "test/model", estimatedCost: "0.010" },
    select: { id: true },
  });
  return generation.id;
}

const reserve = (accountId: string, generationId: string, amountMillis: number) =>
  inTransaction(
    (tx) => reserveCredits(tx, { accountId, generationId, amountMillis, modelIdentifier: "test/model", description: "test reserve" }),
    txOptions,
  );
const charge = (accountId: string, generationId: string) =>
  inTransaction((tx) => chargeCredits(tx, { accountId, generationId }), txOptions);
const refund = (accountId: string, generationId: string) =>
  inTransaction((tx) => refundCredits(tx, { accountId, generationId }), txOptions);
const balanceOf = (accountId: string) => getBalance(db, accountId);

/** adds − reserves + refunds over the account's ledger, in millicredits. */
async function ledgerSum(accountId: string): Promise<number> {
  const [row] = await db.$queryRaw<Array<{ total: string }>>`
    SELECT coalesce(sum(CASE type WHEN 'add' THEN amount WHEN 'reserve' THEN -amount WHEN 'refund' THEN amount ELSE 0 END), 0)::text AS total
    FROM ledger_entry WHERE account_id = ${accountId}::uuid`;
  return decimalToMillis(row!.total);
}

afterAll(async () => {
  await disconnectDb();
});

describe("money helpers", () => {
  it("converts Decimal text to millicredits exactly", () => {
    expect(decimalToMillis("0")).toBe(0);
    expect(decimalToMillis("0.001")).toBe(1);
    expect(decimalToMillis("1.23")).toBe(1230);
    expect(decimalToMillis("999999999.999")).toBe(999_999_999_999);
    expect(decimalToMillis("-0.010")).toBe(-10);
    expect(decimalToMillis("2.5000")).toBe(2500);
    expect(() => decimalToMillis("0.0001")).toThrow(RangeError);
    expect(() => decimalToMillis("1e3")).toThrow(RangeError);
    expect(() => decimalToMillis("abc")).toThrow(RangeError);
  });

  it("prints millicredits as NUMERIC(12,3) text", () => {
    expect(millisToDecimalString(0)).toBe("0.000");
    expect(millisToDecimalString(1)).toBe("0.001");
    expect(millisToDecimalString(1230)).toBe("1.230");
    expect(millisToDecimalString(-5)).toBe("-0.005");
    expect(millisToDecimalString(999_999_999_999)).toBe("999999999.999");
    expect(() => millisToDecimalString(0.5)).toThrow(RangeError);
  });

  it("round-trips Prisma Decimals read from the database", async () => {
    const accountId = await newAccount(1234);
    const account = await db.account.findUniqueOrThrow({ where: { id: accountId } });
    expect(decimalToMillis(account.creditBalance)).toBe(1234);
    // 0.1 + 0.2 in floats is 0.30000000000000004; in millis it is exact.
    await inTransaction((tx) => addCredits(tx, { accountId, amountMillis: 100, sourceKey: `test:${randomUUID()}`, description: "a" }));
    await inTransaction((tx) => addCredits(tx, { accountId, amountMillis: 200, sourceKey: `test:${randomUUID()}`, description: "b" }));
    expect(await balanceOf(accountId)).toBe(1534);
  });
});

describe("addCredits", () => {
  it("adds once per source; the second call is a no-op", async () => {
    const accountId = await newAccount();
    const sourceKey = `invoice:${randomUUID()}`;
    const first = await inTransaction((tx) => addCredits(tx, { accountId, amountMillis: 9000, sourceKey, description: "Starter renewal" }));
    expect(first).toMatchObject({ applied: true, balanceMillis: 9000 });
    const second = await inTransaction((tx) =>
      addCredits(tx, { accountId, amountMillis: 9000, sourceKey, description: "Starter renewal" }),
    );
    expect(second).toEqual({ applied: false, reason: "duplicate_source", balanceMillis: 9000 });

    const entries = await db.ledgerEntry.findMany({ where: { sourceKey } });
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ type: "add", accountId });
    expect(entries[0]!.amount.toFixed(3)).toBe("9.000");
    expect(entries[0]!.balanceAfter.toFixed(3)).toBe("9.000");
    expect(await balanceOf(accountId)).toBe(9000);
    expect(await db.activityEvent.count({ where: { accountId, category: "credit", action: "credit.added" } })).toBe(1);
  });

  it("does not credit a source twice even to another account", async () => {
    const [a, b] = [await newAccount(), await newAccount()];
    const sourceKey = `checkout:${randomUUID()}`;
    expect(
      (await inTransaction((tx) => addCredits(tx, { accountId: a, amountMillis: 10_000, sourceKey, description: "pack" }))).applied,
    ).toBe(true);
    expect(
      (await inTransaction((tx) => addCredits(tx, { accountId: b, amountMillis: 10_000, sourceKey, description: "pack" }))).applied,
    ).toBe(false);
    expect(await balanceOf(b)).toBe(0);
  });

  it("refuses zero, negative and fractional millicredits, and unknown accounts", async () => {
    const accountId = await newAccount();
    for (const amountMillis of [0, -1000, 1.5, Number.NaN]) {
      await expectApiError(
        inTransaction((tx) => addCredits(tx, { accountId, amountMillis, sourceKey: `test:${randomUUID()}`, description: "x" })),
        "ERR1001",
      );
    }
    await expectApiError(
      inTransaction((tx) =>
        addCredits(tx, { accountId: randomUUID(), amountMillis: 1, sourceKey: `test:${randomUUID()}`, description: "x" }),
      ),
      "ERR1006",
    );
    await expectApiError(
      inTransaction((tx) =>
        addCredits(tx, { accountId: "not-a-uuid", amountMillis: 1, sourceKey: `test:${randomUUID()}`, description: "x" }),
      ),
      "ERR1006",
    );
    expect(await db.ledgerEntry.count({ where: { accountId } })).toBe(0);
  });

  it("concurrent adds of one source apply once", async () => {
    const accountId = await newAccount();
    const sourceKey = `invoice:${randomUUID()}`;
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        inTransaction((tx) => addCredits(tx, { accountId, amountMillis: 2500, sourceKey, description: "renewal" }), txOptions),
      ),
    );
    expect(results.filter((result) => result.applied)).toHaveLength(1);
    expect(await balanceOf(accountId)).toBe(2500);
    expect(await db.ledgerEntry.count({ where: { sourceKey } })).toBe(1);
  });
});

describe("reserveCredits", () => {
  it("deducts the amount and records balance-after, model and generation", async () => {
    const accountId = await newAccount(1000);
    const generationId = await newGeneration(accountId);
    const result = await reserve(accountId, generationId, 40);
    expect(result).toMatchObject({ applied: true, amountMillis: 40, balanceMillis: 960 });
    const entry = await db.ledgerEntry.findFirstOrThrow({ where: { generationId, type: "reserve" } });
    expect(entry.amount.toFixed(3)).toBe("0.040");
    expect(entry.balanceAfter.toFixed(3)).toBe("0.960");
    expect(entry.modelIdentifier).toBe("test/model");
    expect(await balanceOf(accountId)).toBe(960);
    expect(await db.activityEvent.count({ where: { accountId, action: "credit.reserved" } })).toBe(1);
  });

  it("a short balance is ERR1004 with required and balance, and writes nothing", async () => {
    const accountId = await newAccount(30);
    const generationId = await newGeneration(accountId);
    const [entriesBefore, eventsBefore] = [
      await db.ledgerEntry.count({ where: { accountId } }),
      await db.activityEvent.count({ where: { accountId } }),
    ];
    const error = await expectApiError(reserve(accountId, generationId, 31), "ERR1004");
    expect(error.details).toEqual({ required: 0.031, balance: 0.03 });
    expect(error.status).toBe(402);
    expect(await db.ledgerEntry.count({ where: { accountId } })).toBe(entriesBefore);
    expect(await db.activityEvent.count({ where: { accountId } })).toBe(eventsBefore);
    expect(await balanceOf(accountId)).toBe(30);
  });

  it("may take the balance to exactly zero, never below", async () => {
    const accountId = await newAccount(30);
    expect((await reserve(accountId, await newGeneration(accountId), 30)).balanceMillis).toBe(0);
    await expectApiError(reserve(accountId, await newGeneration(accountId), 1), "ERR1004");
    expect(await balanceOf(accountId)).toBe(0);
  });

  it("a second reserve for a generation is a no-op", async () => {
    const accountId = await newAccount(1000);
    const generationId = await newGeneration(accountId);
    await reserve(accountId, generationId, 100);
    expect(await reserve(accountId, generationId, 100)).toMatchObject({ applied: false, reason: "already_reserved", balanceMillis: 900 });
    expect(await db.ledgerEntry.count({ where: { generationId } })).toBe(1);
  });
});

describe("charge and refund", () => {
  it("charge confirms the reserved amount without touching the balance; repeats are no-ops", async () => {
    const accountId = await newAccount(1000);
    const generationId = await newGeneration(accountId);
    await reserve(accountId, generationId, 250);
    expect(await charge(accountId, generationId)).toMatchObject({ applied: true, amountMillis: 250, balanceMillis: 750 });
    expect(await charge(accountId, generationId)).toMatchObject({ applied: false, reason: "already_charged", balanceMillis: 750 });
    // A refund after the charge is refused.
    expect(await refund(accountId, generationId)).toMatchObject({ applied: false, reason: "already_charged", balanceMillis: 750 });

    const entries = await db.ledgerEntry.findMany({ where: { generationId }, orderBy: { createdAt: "asc" } });
    expect(entries.map((entry) => entry.type).sort()).toEqual(["charge", "reserve"]);
    const chargeEntry = entries.find((entry) => entry.type === "charge")!;
    expect(chargeEntry.amount.toFixed(3)).toBe("0.250");
    expect(chargeEntry.balanceAfter.toFixed(3)).toBe("0.750");
    expect(await balanceOf(accountId)).toBe(750);
    expect(await db.activityEvent.count({ where: { accountId, action: "credit.charged" } })).toBe(1);
  });

  it("a charge's alongside writes go in whether a charge is due or not, once per call", async () => {
    const accountId = await newAccount(1000);
    const generationId = await newGeneration(accountId);
    // A caller's write that names itself: the generation's prediction id, appended to per call.
    const mark = (label: string) => [
      Prisma.sql`marked AS (UPDATE generation SET prediction_id = coalesce(prediction_id, '') || ${label} WHERE id = ${generationId}::uuid)`,
    ];
    const chargeWith = (label: string) =>
      inTransaction((tx) => chargeCredits(tx, { accountId, generationId, alongside: mark(label) }), txOptions);
    const marks = async () => (await db.generation.findUniqueOrThrow({ where: { id: generationId } })).predictionId;

    expect(await chargeWith("a")).toMatchObject({ applied: false, reason: "not_reserved" });
    expect(await marks()).toBe("a");
    await reserve(accountId, generationId, 100);
    expect(await chargeWith("b")).toMatchObject({ applied: true, amountMillis: 100 });
    expect(await marks()).toBe("ab");
    expect(await chargeWith("c")).toMatchObject({ applied: false, reason: "already_charged" });
    expect(await marks()).toBe("abc");
    expect(await db.ledgerEntry.count({ where: { generationId, type: "charge" } })).toBe(1);
    expect(await balanceOf(accountId)).toBe(900);
  });

  it("refund gives the reserved amount back once; a charge after it is refused", async () => {
    const accountId = await newAccount(1000);
    const generationId = await newGeneration(accountId);
    await reserve(accountId, generationId, 250);
    expect(await refund(accountId, generationId)).toMatchObject({ applied: true, amountMillis: 250, balanceMillis: 1000 });
    expect(await refund(accountId, generationId)).toMatchObject({ applied: false, reason: "already_refunded", balanceMillis: 1000 });
    expect(await charge(accountId, generationId)).toMatchObject({ applied: false, reason: "already_refunded", balanceMillis: 1000 });

    const entries = await db.ledgerEntry.findMany({ where: { generationId } });
    expect(entries.map((entry) => entry.type).sort()).toEqual(["refund", "reserve"]);
    expect(entries.find((entry) => entry.type === "refund")!.balanceAfter.toFixed(3)).toBe("1.000");
    expect(await balanceOf(accountId)).toBe(1000);
    expect(await ledgerSum(accountId)).toBe(1000);
    expect(await db.activityEvent.count({ where: { accountId, action: "credit.refunded" } })).toBe(1);
  });

  it("nothing to settle without a reservation (or for another account's)", async () => {
    const accountId = await newAccount(1000);
    const other = await newAccount(1000);
    const generationId = await newGeneration(accountId);
    expect(await charge(accountId, generationId)).toMatchObject({ applied: false, reason: "not_reserved" });
    await reserve(accountId, generationId, 100);
    expect(await refund(other, generationId)).toMatchObject({ applied: false, reason: "not_reserved", balanceMillis: 1000 });
    expect(await db.ledgerEntry.count({ where: { generationId } })).toBe(1);
  });

  it("concurrent duplicate charges write one entry", async () => {
    const accountId = await newAccount(1000);
    const generationId = await newGeneration(accountId);
    await reserve(accountId, generationId, 100);
    const results = await Promise.all(Array.from({ length: 25 }, () => charge(accountId, generationId)));
    expect(results.filter((result) => result.applied)).toHaveLength(1);
    expect(await db.ledgerEntry.count({ where: { generationId, type: "charge" } })).toBe(1);
    expect(await balanceOf(accountId)).toBe(900);
  });

  it("concurrent duplicate refunds write one entry and give back once", async () => {
    const accountId = await newAccount(1000);
    const generationId = await newGeneration(accountId);
    await reserve(accountId, generationId, 100);
    const results = await Promise.all(Array.from({ length: 25 }, () => refund(accountId, generationId)));
    expect(results.filter((result) => result.applied)).toHaveLength(1);
    expect(await db.ledgerEntry.count({ where: { generationId, type: "refund" } })).toBe(1);
    expect(await balanceOf(accountId)).toBe(1000);
  });

  it("racing charges and refunds settle a reservation exactly once", async () => {
    const accountId = await newAccount(1000);
    const generationIds = await Promise.all(Array.from({ length: 10 }, () => newGeneration(accountId)));
    for (const generationId of generationIds) await reserve(accountId, generationId, 50);
    await Promise.all(
      generationIds.flatMap((generationId) => [
        charge(accountId, generationId),
        refund(accountId, generationId),
        charge(accountId, generationId),
        refund(accountId, generationId),
      ]),
    );
    let refunded = 0;
    for (const generationId of generationIds) {
      const settled = await db.ledgerEntry.findMany({ where: { generationId, type: { in: ["charge", "refund"] } } });
      expect(settled).toHaveLength(1);
      if (settled[0]!.type === "refund") refunded += 50;
    }
    expect(await balanceOf(accountId)).toBe(500 + refunded);
    expect(await ledgerSum(accountId)).toBe(500 + refunded);
  });
});

describe("the database refuses what the code must never do", () => {
  it("UPDATE on ledger_entry (append-only trigger)", async () => {
    const accountId = await newAccount(1000);
    await expect(db.$executeRaw`UPDATE ledger_entry SET amount = 5 WHERE account_id = ${accountId}::uuid`).rejects.toThrow(/append-only/);
    const entry = await db.ledgerEntry.findFirstOrThrow({ where: { accountId } });
    await expect(db.ledgerEntry.update({ where: { id: entry.id }, data: { description: "rewritten" } })).rejects.toThrow();
    expect((await db.ledgerEntry.findUniqueOrThrow({ where: { id: entry.id } })).amount.toFixed(3)).toBe("1.000");
  });

  it("a negative balance, a negative amount or balance-after", async () => {
    const accountId = await newAccount(10);
    await expect(db.account.update({ where: { id: accountId }, data: { creditBalance: "-0.001" } })).rejects.toThrow();
    await expect(db.$executeRaw`UPDATE account SET credit_balance = credit_balance - 0.011 WHERE id = ${accountId}::uuid`).rejects.toThrow(
      /account_credit_balance_non_negative/,
    );
    await expect(
      db.ledgerEntry.create({
        data: { accountId, type: "add", amount: "-1.000", balanceAfter: "0.000", description: "x", sourceKey: `test:${randomUUID()}` },
      }),
    ).rejects.toThrow();
    await expect(
      db.ledgerEntry.create({
        data: { accountId, type: "reserve", amount: "1.000", balanceAfter: "-0.990", description: "x", generationId: randomUUID() },
      }),
    ).rejects.toThrow();
    expect(await balanceOf(accountId)).toBe(10);
  });

  it("a second reserve, charge or refund for a generation, and a second add for a source", async () => {
    const accountId = await newAccount(1000);
    const charged = randomUUID();
    const refunded = randomUUID();
    const sourceKey = `test:${randomUUID()}`;
    const row = (generationId: string, type: "reserve" | "charge" | "refund") => ({
      accountId,
      type,
      amount: "0.010",
      balanceAfter: "1.000",
      description: "direct",
      generationId,
    });
    for (const [generationId, settlement] of [
      [charged, "charge"],
      [refunded, "refund"],
    ] as const) {
      for (const type of ["reserve", settlement] as const) {
        await db.ledgerEntry.create({ data: row(generationId, type) });
        await expect(db.ledgerEntry.create({ data: row(generationId, type) })).rejects.toThrow(/Unique constraint|unique/i);
      }
    }
    // A reservation settles once: no refund after a charge, no charge after a refund.
    await expect(db.ledgerEntry.create({ data: row(charged, "refund") })).rejects.toThrow(/ledger_entry_one_settlement_per_generation/);
    await expect(db.ledgerEntry.create({ data: row(refunded, "charge") })).rejects.toThrow(/ledger_entry_one_settlement_per_generation/);
    // Reserve, charge and refund must name their generation.
    await expect(db.ledgerEntry.create({ data: { ...row(charged, "reserve"), generationId: null } })).rejects.toThrow(
      /ledger_entry_movement_names_generation/,
    );
    await db.ledgerEntry.create({
      data: { accountId, type: "add", amount: "1.000", balanceAfter: "1.000", description: "direct", sourceKey },
    });
    await expect(
      db.ledgerEntry.create({ data: { accountId, type: "add", amount: "1.000", balanceAfter: "1.000", description: "direct", sourceKey } }),
    ).rejects.toThrow(/Unique constraint|unique/i);
    // An add must name its source and add something.
    await expect(
      db.ledgerEntry.create({ data: { accountId, type: "add", amount: "1.000", balanceAfter: "1.000", description: "direct" } }),
    ).rejects.toThrow();
    await expect(
      db.ledgerEntry.create({
        data: { accountId, type: "add", amount: "0.000", balanceAfter: "1.000", description: "direct", sourceKey: `test:${randomUUID()}` },
      }),
    ).rejects.toThrow(/ledger_entry_add_is_positive/);
    expect(await db.ledgerEntry.count({ where: { generationId: { in: [charged, refunded] } } })).toBe(4);
    expect(await db.ledgerEntry.count({ where: { sourceKey } })).toBe(1);
  });
});

describe("concurrency", () => {
  it("200 concurrent reserves of 0.010 against 0.500: exactly 50 succeed, balance 0.000, ledger sums to it", async () => {
    const accountId = await newAccount(500);
    const generationIds: string[] = [];
    for (let i = 0; i < 200; i++) generationIds.push(await newGeneration(accountId));

    const outcomes = await Promise.allSettled(generationIds.map((generationId) => reserve(accountId, generationId, 10)));
    const succeeded = outcomes.filter((outcome) => outcome.status === "fulfilled");
    const failed = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === "rejected");
    expect(succeeded).toHaveLength(50);
    expect(failed).toHaveLength(150);
    for (const outcome of failed) {
      expect(outcome.reason).toBeInstanceOf(ApiError);
      expect((outcome.reason as ApiError).code).toBe("ERR1004");
    }

    expect(await balanceOf(accountId)).toBe(0);
    expect(await db.ledgerEntry.count({ where: { accountId, type: "reserve" } })).toBe(50);
    expect(await ledgerSum(accountId)).toBe(0);
    // Every balance-after from 0.490 down to 0.000 appears exactly once: no lost update.
    const after = await db.ledgerEntry.findMany({ where: { accountId, type: "reserve" }, select: { balanceAfter: true } });
    expect(after.map((entry) => decimalToMillis(entry.balanceAfter)).sort((x, y) => x - y)).toEqual(
      Array.from({ length: 50 }, (_, i) => i * 10),
    );
  }, 120_000);

  it("refunds running alongside new reserves keep the ledger equal to the balance", async () => {
    const accountId = await newAccount(500);
    const first = await Promise.all(Array.from({ length: 25 }, () => newGeneration(accountId)));
    for (const generationId of first) await reserve(accountId, generationId, 20);
    expect(await balanceOf(accountId)).toBe(0);

    const second = await Promise.all(Array.from({ length: 60 }, () => newGeneration(accountId)));
    await Promise.allSettled([
      ...first.map((generationId) => refund(accountId, generationId)),
      ...second.map((generationId) => reserve(accountId, generationId, 20)),
    ]);

    const balance = await balanceOf(accountId);
    expect(balance).toBeGreaterThanOrEqual(0);
    expect(await ledgerSum(accountId)).toBe(balance);
    const reserves = await db.ledgerEntry.count({ where: { accountId, type: "reserve" } });
    const refunds = await db.ledgerEntry.count({ where: { accountId, type: "refund" } });
    expect(refunds).toBe(25);
    expect(balance).toBe(500 - 20 * reserves + 20 * refunds);
  }, 120_000);

  it("a movement's account lock holds other movements and an account change, not rows that only reference the account", async () => {
    const accountId = await newAccount(500);
    const [held, waiting] = await Promise.all([newGeneration(accountId), newGeneration(accountId)]);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const lockTaken = new Promise<void>((resolve) => (locked = resolve));
    // A reserve that keeps its transaction (and the account lock) open until released.
    const holder = inTransaction(async (tx) => {
      await reserveCredits(tx, {
        accountId,
        generationId: held,
        amountMillis: 10,
        modelIdentifier: "test/model",
        description: "held reserve",
      });
      locked();
      await released;
    }, txOptions);
    await lockTaken;
    try {
      const lockTimeout = async <T>(body: (tx: Parameters<Parameters<typeof inTransaction>[0]>[0]) => Promise<T>) =>
        inTransaction(async (tx) => {
          await tx.$executeRawUnsafe("SET LOCAL lock_timeout = '300ms'");
          return body(tx);
        }, txOptions);
      // Rows whose foreign key names the account (KEY SHARE) are written while the lock is held.
      await lockTimeout((tx) =>
        tx.activityEvent.create({
          data: {
            accountId,
            actor: "system",
            category: "credit",
            action: "test.referencing",
            description: "written beside a held movement",
          },
        }),
      );
      await lockTimeout((tx) =>
        tx.providerAttempt.create({
          data: {
            generationId: waiting,
            accountId,
            region: "us",
            modelIdentifier: "test/model",
            provider: "local",
            attemptNumber: 1,
            estimatedCost: "0.010",
          },
        }),
      );
      // Another movement, and a change to the account row, wait for it.
      await expect(
        lockTimeout((tx) =>
          reserveCredits(tx, { accountId, generationId: waiting, amountMillis: 10, modelIdentifier: "test/model", description: "second" }),
        ),
      ).rejects.toThrow(/lock timeout/);
      await expect(lockTimeout((tx) => tx.account.update({ where: { id: accountId }, data: { name: "renamed" } }))).rejects.toThrow(
        /lock timeout/,
      );
    } finally {
      release();
      await holder;
    }
    expect(await balanceOf(accountId)).toBe(490);
  }, 60_000);
});
