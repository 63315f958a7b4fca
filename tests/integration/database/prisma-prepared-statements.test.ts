import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { db, disconnectDb, prismaStatementName } from "@/server/base/db";

// Prisma's statements run as named prepared statements (server/base/db.ts): a connection parses and
// plans each SQL text once. One text, one name; a second run of it on the connection binds the
// statement it prepared, and answers as before.

afterAll(() => disconnectDb());

describe("Prisma's prepared statements", () => {
  it("names one SQL text the same each time, and two texts differently", () => {
    const first = prismaStatementName({ sql: `SELECT 1 AS "named ${randomUUID()}"` });
    expect(first).toMatch(/^prisma-[A-Za-z0-9_-]{27}$/);
    expect(prismaStatementName({ sql: "SELECT 2 AS two" })).toBe(prismaStatementName({ sql: "SELECT 2 AS two" }));
    expect(prismaStatementName({ sql: "SELECT 2 AS two" })).not.toBe(first);
  });

  it("prepares a model query once on its connection and reuses it", async () => {
    const email = `prepared-${randomUUID()}@example.com`;
    const result = await db.$transaction(async (tx) => {
      // The same query twice on the transaction's one connection, then what that connection prepared.
      const missing = await tx.user.findFirst({ where: { email }, select: { id: true } });
      const again = await tx.user.findFirst({ where: { email: `${email}.other` }, select: { id: true } });
      const prepared = await tx.$queryRaw<Array<{ name: string; statement: string }>>`SELECT name, statement FROM pg_prepared_statements`;
      return { missing, again, prepared };
    });
    expect(result.missing).toBeNull();
    expect(result.again).toBeNull();
    const userQueries = result.prepared.filter(
      (row) => row.name.startsWith("prisma-") && row.statement.includes('"public"."user"') && row.statement.includes('"email"'),
    );
    expect(userQueries).toHaveLength(1);
    expect(result.prepared.some((row) => row.statement.includes("pg_prepared_statements"))).toBe(true);
  });

  it("answers a prepared statement's later runs with their own parameters", async () => {
    const emails = [`a-${randomUUID()}@example.com`, `b-${randomUUID()}@example.com`];
    const created = await Promise.all(emails.map((email) => db.user.create({ data: { email }, select: { id: true } })));
    try {
      for (let round = 0; round < 3; round += 1) {
        for (const [index, email] of emails.entries()) {
          expect(await db.user.findFirst({ where: { email }, select: { id: true } })).toEqual(created[index]);
        }
      }
    } finally {
      await db.user.deleteMany({ where: { id: { in: created.map((user) => user.id) } } });
    }
  });
});
