import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { createAccount } from "@/server/accounts/create-account";
import { db } from "@/server/base/db";
import { accountScope } from "@/server/base/account-scope";
import { cancelGeneration } from "@/server/generations/cancel-generation";
import { finishSucceeded } from "@/server/generations/run/finish-generation";
import { inTransaction } from "@/server/base/transaction";
import { inFlightWithAttempt, ledgerOf } from "@/tests/support/generations";

// The finish locks its generation and its account in one statement. Every transaction that locks
// both (a cancel, the deadline, a failure, the finish) must take the generation's first, or two of
// them deadlock: here the account is held elsewhere, and the finish, waiting for it, must already
// hold its generation.

const holders: pg.Client[] = [];

async function connection() {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  holders.push(client);
  return client;
}

afterAll(async () => {
  for (const client of holders) await client.end().catch(() => undefined);
});

async function processing() {
  const { account_id: accountId } = await inTransaction((tx) => createAccount(tx, { email: `lock-order-${randomUUID()}@test.local` }));
  return { accountId, generationId: await inFlightWithAttempt(accountId, { amountMillis: 2, provider: "local", startedAt: new Date() }) };
}

describe("the finish's locks", () => {
  it("holds the generation while it waits for the account, then charges once the account is free", async () => {
    const { accountId, generationId } = await processing();
    const holder = await connection();
    await holder.query("BEGIN");
    await holder.query("SELECT 1 FROM account WHERE id = $1 FOR NO KEY UPDATE", [accountId]);

    const finished = finishSucceeded({ generationId, attempt: 1, outputKeys: [], predictTimeSeconds: null });
    const probe = await connection();
    // Until the finish's statement has the generation, NOWAIT gets it (and lets go at once): wait for the refusal.
    let refused: { code?: string } | null = null;
    for (let tries = 0; tries < 200 && !refused; tries += 1) {
      await probe.query("BEGIN");
      refused = await probe.query("SELECT 1 FROM generation WHERE id = $1 FOR UPDATE NOWAIT", [generationId]).then(
        () => null,
        (error: { code?: string }) => error,
      );
      await probe.query("ROLLBACK");
      if (!refused) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(refused?.code).toBe("55P03");
    // The finish is waiting for the account, its generation still in flight.
    expect((await db.generation.findUniqueOrThrow({ where: { id: generationId } })).status).toBe("processing");

    await holder.query("COMMIT");
    expect(await finished).toEqual({ succeeded: true });
    expect((await db.generation.findUniqueOrThrow({ where: { id: generationId } })).status).toBe("succeeded");
    expect(await ledgerOf(generationId)).toEqual(["reserve:0.002", "charge:0.002"]);
  });

  // The finish reads the reservation in its locking statement, whose snapshot predates its lock
  // wait: here the holder it waits for is a cancel that refunds, and that refund is not in the
  // snapshot. The status read after the wait says the generation left flight, so nothing is charged.
  it("waits for a cancel holding the generation, then charges nothing: the cancel's refund stands alone", async () => {
    const { accountId, generationId } = await processing();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let refunded!: (backend: number) => void;
    const canceledInside = new Promise<number>((resolve) => (refunded = resolve));
    const canceling = inTransaction(async (tx) => {
      const canceled = await cancelGeneration(tx, accountScope(accountId), { generationId });
      const [backend] = await tx.$queryRaw<Array<{ pid: number }>>`SELECT pg_backend_pid() AS pid`;
      refunded(backend?.pid ?? 0);
      await gate;
      return canceled;
    });
    const cancelBackend = await canceledInside;

    const finished = finishSucceeded({ generationId, attempt: 1, outputKeys: [], predictTimeSeconds: null });
    const probe = await connection();
    let waiting = 0;
    for (let tries = 0; tries < 200 && waiting === 0; tries += 1) {
      const { rows } = await probe.query<{ count: number }>(
        "SELECT count(*)::int AS count FROM pg_stat_activity WHERE $1::int = ANY (pg_blocking_pids(pid)) AND query LIKE '%FOR UPDATE OF g%'",
        [cancelBackend],
      );
      waiting = rows[0]?.count ?? 0;
      if (waiting === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(waiting).toBe(1);

    release();
    expect(await canceling).toMatchObject({ done: { refunded: true, refundedMillis: 2 } });
    expect(await finished).toEqual({ succeeded: false });
    expect((await db.generation.findUniqueOrThrow({ where: { id: generationId } })).status).toBe("canceled");
    expect(await ledgerOf(generationId)).toEqual(["reserve:0.002", "refund:0.002"]);
    expect((await db.providerAttempt.findFirstOrThrow({ where: { generationId } })).outcome).toBe("discarded");
  });
});
