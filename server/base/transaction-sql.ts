import pg from "pg";
import { prismaStatementName, sqlPool, type Tx } from "./db";
import { Prisma } from "./generated/prisma/client";
import { connectionOf } from "./transaction";

// A raw statement of a transaction opened by inTransaction, sent with pg on the connection that
// transaction holds (server/base/transaction-connection.ts) instead of through Prisma: the same
// statement and the same transaction, at a quarter of the CPU (Prisma's query interpreter, its
// parameter and result mapping cost about 0.4 ms a statement here, pg about 0.1). For the
// statements every generation runs (its create and its finish). Values come back typed as
// Prisma's $queryRaw types them (numeric as Decimal, bigint as BigInt, date and timestamp as UTC
// Dates), so a call site reads the same rows either way; without a known connection (a
// transaction not opened by inTransaction) the statement goes through Prisma as before.

const { builtins } = pg.types;
const asDecimal = (text: string) => new Prisma.Decimal(text);
const asArrayOf =
  <T>(oid: number, each: (text: string) => T) =>
  (text: string) =>
    (pg.types.getTypeParser(oid, "text") as (value: string) => Array<string | null>)(text).map((item) =>
      item === null ? null : each(item),
    );

/** pg's text parsers, with Prisma's types where they differ. */
const prismaTypes = {
  getTypeParser(oid: number, format?: "text" | "binary") {
    if (format === "binary") return pg.types.getTypeParser(oid, format);
    switch (oid) {
      case builtins.NUMERIC:
        return asDecimal;
      case builtins.INT8:
        return (text: string) => BigInt(text);
      case 1231: // numeric[]
        return asArrayOf(oid, asDecimal);
      case 1016: // int8[]
        return asArrayOf(oid, (text) => BigInt(text));
      case builtins.DATE:
        return (text: string) => new Date(`${text}T00:00:00Z`);
      case builtins.TIMESTAMP:
        return (text: string) => new Date(`${text.replace(" ", "T")}Z`);
      default:
        return pg.types.getTypeParser(oid, "text");
    }
  },
};

async function send(tx: Tx, text: string, values: unknown[]): Promise<pg.QueryResult | null> {
  const slot = connectionOf(tx);
  if (slot?.closed) throw new Error("Transaction already closed: a statement was sent after its commit or rollback");
  if (!slot?.client) return null;
  return slot.client.query({ name: prismaStatementName({ sql: text }), text, values: values.map(asParameter), types: prismaTypes });
}

/**
 * A Date as its ISO text: pg's own formatting of a Date (local time with its offset, digit by digit
 * in JavaScript) was about 0.7 % of a generation's CPU. Every timestamp column is
 * timestamptz, which reads either form as the same instant.
 */
const asParameter = (value: unknown) => (value instanceof Date ? value.toISOString() : value);

/** `tx.$queryRaw(statement)`, on the transaction's connection directly. */
export async function queryInTransaction<Row>(tx: Tx, statement: Prisma.Sql): Promise<Row[]> {
  const result = await send(tx, statement.text, statement.values);
  return result ? (result.rows as Row[]) : tx.$queryRaw<Row[]>(statement);
}

/** `tx.$queryRawUnsafe(text, ...values)`, on the transaction's connection directly. */
export async function queryTextInTransaction<Row>(tx: Tx, text: string, values: unknown[]): Promise<Row[]> {
  const result = await send(tx, text, values);
  return result ? (result.rows as Row[]) : tx.$queryRawUnsafe<Row[]>(text, ...values);
}

/**
 * A statement alone, committed by itself (the create's and the finish's usual cases): on a pool
 * connection, named by its text, its parameters as above.
 */
export async function queryAlone<Row extends pg.QueryResultRow>(statement: Prisma.Sql): Promise<Row[]> {
  const { rows } = await sqlPool().query<Row>({
    name: prismaStatementName({ sql: statement.text }),
    text: statement.text,
    values: statement.values.map(asParameter),
  });
  return rows;
}

/** `tx.$executeRaw(statement)` (the rows it touched), on the transaction's connection directly. */
export async function executeInTransaction(tx: Tx, statement: Prisma.Sql): Promise<number> {
  const result = await send(tx, statement.text, statement.values);
  return result ? (result.rowCount ?? 0) : tx.$executeRaw(statement);
}
