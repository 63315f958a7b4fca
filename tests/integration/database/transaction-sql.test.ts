import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it, vi } from "vitest";
import { db, disconnectDb } from "@/server/base/db";
import { Prisma } from "@/server/base/generated/prisma/client";
import { afterCommit, inTransaction } from "@/server/base/transaction";
import { executeInTransaction, queryInTransaction, queryTextInTransaction } from "@/server/base/transaction-sql";

// The hot statements of a transaction go to its connection with pg directly
// (server/base/transaction-sql.ts): they must be part of the same transaction as Prisma's statements
// (same backend, same transaction id, undone by a rollback), come back typed as Prisma's
// $queryRaw types them, never reach a connection the transaction no longer holds, and fall back to
// Prisma where no connection is known.

afterAll(() => disconnectDb());

const backendAndTransaction = Prisma.sql`SELECT pg_backend_pid() AS pid, txid_current()::text AS txid`;

describe("statements sent on the transaction's own connection", () => {
  it("run in the same transaction as Prisma's, on the same backend", async () => {
    const [viaPrisma, viaPg] = await inTransaction(async (tx) => {
      const [prisma] = await tx.$queryRaw<Array<{ pid: number; txid: string }>>(backendAndTransaction);
      const [direct] = await queryInTransaction<{ pid: number; txid: string }>(tx, backendAndTransaction);
      return [prisma, direct];
    });
    expect(viaPg).toEqual(viaPrisma);
  });

  it("keeps 24 concurrent transactions each on its own connection", async () => {
    const results = await Promise.all(
      Array.from({ length: 24 }, () =>
        inTransaction(async (tx) => {
          const [direct] = await queryInTransaction<{ pid: number; txid: string }>(tx, backendAndTransaction);
          await new Promise((resolve) => setTimeout(resolve, 5));
          const [prisma] = await tx.$queryRaw<Array<{ pid: number; txid: string }>>(backendAndTransaction);
          return { direct, prisma };
        }),
      ),
    );
    for (const { direct, prisma } of results) expect(direct).toEqual(prisma);
    expect(new Set(results.map(({ direct }) => direct!.txid)).size).toBe(24);
  });

  it("types values as Prisma's $queryRaw does", async () => {
    const statement = Prisma.sql`SELECT 12.345::numeric AS amount, 9007199254740993::int8 AS big, ARRAY[1.5, 2.25]::numeric[] AS amounts,
                                        '2026-11-27 10:11:12.345+00'::timestamptz AS at, '2026-11-27'::date AS day, '2026-11-27 10:11:12.5'::timestamp AS naive,
                                        '{"a": [1, 2]}'::jsonb AS doc, ARRAY['x', 'y'] AS names, true AS yes, 7::int AS small, ${"text"}::text AS label`;
    const [viaPrisma, viaPg] = await inTransaction(async (tx) => [
      (await tx.$queryRaw<unknown[]>(statement))[0],
      (await queryInTransaction<unknown>(tx, statement))[0],
    ]);
    expect(viaPg).toEqual(viaPrisma);
    const row = viaPg as Record<string, unknown>;
    expect(row.amount).toBeInstanceOf(Prisma.Decimal);
    expect(String(row.amount)).toBe("12.345");
    expect(row.big).toBe(9007199254740993n);
    expect((row.amounts as Prisma.Decimal[]).map(String)).toEqual(["1.5", "2.25"]);
    expect((row.at as Date).toISOString()).toBe("2026-11-27T10:11:12.345Z");
    expect((row.day as Date).toISOString()).toBe("2026-11-27T00:00:00.000Z");
    expect((row.naive as Date).toISOString()).toBe("2026-11-27T10:11:12.500Z");
    expect(row).toMatchObject({ doc: { a: [1, 2] }, names: ["x", "y"], yes: true, small: 7, label: "text" });
  });

  it("is undone by the transaction's rollback, and counts the rows an execute touched", async () => {
    const email = `transaction-sql-${randomUUID()}@example.com`;
    const failure = new Error("roll back");
    let touched = -1;
    await expect(
      inTransaction(async (tx) => {
        await tx.user.create({ data: { email } });
        touched = await executeInTransaction(tx, Prisma.sql`UPDATE "user" SET name = 'changed' WHERE email = ${email}`);
        const [seen] = await queryTextInTransaction<{ name: string }>(tx, `SELECT name FROM "user" WHERE email = $1`, [email]);
        expect(seen?.name).toBe("changed");
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(touched).toBe(1);
    expect(await db.user.findFirst({ where: { email } })).toBeNull();
  });

  it("refuses a statement sent after the transaction ended, rather than using a connection it gave back", async () => {
    let leaked: Parameters<Parameters<typeof inTransaction>[0]>[0] | null = null;
    await inTransaction(async (tx) => {
      leaked = tx;
      await queryInTransaction(tx, Prisma.sql`SELECT 1`);
    });
    await expect(queryInTransaction(leaked!, Prisma.sql`SELECT 1`)).rejects.toThrow(/Transaction already closed/);
  });

  it("finds the connection from another copy of the modules (the boot script's, where the executor writes a create's runs)", async () => {
    vi.resetModules();
    const copy = { transaction: await import("@/server/base/transaction"), sql: await import("@/server/base/transaction-sql") };
    expect(copy.transaction.inTransaction).not.toBe(inTransaction);
    const [viaPrisma, viaCopy, slot] = await inTransaction(async (tx) => [
      (await tx.$queryRaw<Array<{ pid: number; txid: string }>>(backendAndTransaction))[0],
      (await copy.sql.queryInTransaction<{ pid: number; txid: string }>(tx, backendAndTransaction))[0],
      copy.transaction.connectionOf(tx),
    ]);
    // Known to the other copy: its statement went to the connection directly, not through Prisma.
    expect(slot).not.toBeNull();
    expect(viaCopy).toEqual(viaPrisma);
  });

  it("goes through Prisma in a transaction inTransaction did not open", async () => {
    const [viaPrisma, viaFallback] = await db.$transaction(async (tx) => [
      (await tx.$queryRaw<Array<{ pid: number; txid: string }>>(backendAndTransaction))[0],
      (await queryInTransaction<{ pid: number; txid: string }>(tx, backendAndTransaction))[0],
    ]);
    expect(viaFallback).toEqual(viaPrisma);
  });
});

describe("inTransaction: one path, whatever the body sends", () => {
  const insertUser = (email: string) => Prisma.sql`INSERT INTO "user" (id, email, updated_at) VALUES (gen_random_uuid(), ${email}, now())`;
  const usersWith = (email: string) => db.user.count({ where: { email } });

  it("runs a body of direct statements and Prisma's API once, on one backend in one transaction, then its after-commit jobs", async () => {
    const email = `one-path-${randomUUID()}@example.com`;
    let runs = 0;
    const jobs: string[] = [];
    const [first, second, found] = await inTransaction(async (tx) => {
      runs += 1;
      const [before] = await queryInTransaction<{ pid: number; txid: string }>(tx, backendAndTransaction);
      await executeInTransaction(tx, insertUser(email));
      afterCommit(tx, "test job", async () => void jobs.push("ran"));
      const user = await tx.user.findFirstOrThrow({ where: { email }, select: { email: true } });
      const [after] = await tx.$queryRaw<Array<{ pid: number; txid: string }>>(backendAndTransaction);
      return [before, after, user] as const;
    });
    expect(runs).toBe(1);
    expect(second).toEqual(first);
    expect(found.email).toBe(email);
    expect(jobs).toEqual(["ran"]);
    expect(await usersWith(email)).toBe(1);
  });

  it("rolls back and rethrows a body's own error, running it once and dropping its after-commit jobs", async () => {
    const email = `one-path-${randomUUID()}@example.com`;
    const failure = new Error("roll back");
    const jobs: string[] = [];
    let runs = 0;
    await expect(
      inTransaction(async (tx) => {
        runs += 1;
        await executeInTransaction(tx, insertUser(email));
        afterCommit(tx, "test job", async () => void jobs.push("ran"));
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(runs).toBe(1);
    expect(jobs).toEqual([]);
    expect(await usersWith(email)).toBe(0);
  });

  it("refuses statements past its timeout and rolls back", async () => {
    const email = `one-path-${randomUUID()}@example.com`;
    await expect(
      inTransaction(
        async (tx) => {
          await executeInTransaction(tx, insertUser(email));
          await new Promise((resolve) => setTimeout(resolve, 200));
          await executeInTransaction(tx, Prisma.sql`SELECT 1`);
        },
        { timeout: 50 },
      ),
    ).rejects.toThrow(/Transaction already closed|expired/);
    expect(await usersWith(email)).toBe(0);
  });
});
