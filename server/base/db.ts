import { PrismaPg } from "@prisma/adapter-pg";
import { createHash } from "node:crypto";
import pg from "pg";
import { PrismaClient } from "./generated/prisma/client";
import { env } from "./env";
import { noteTransactionConnection } from "./transaction-connection";

// One connection pool and one Prisma client per process (kept on globalThis so Next's dev reloads
// and the server's two module graphs, Next's bundle and the boot script's, reuse them). The few
// statements every /v1 request runs (rate limit, request-log batches, key lookups) go straight to
// the pool: Prisma's per-query work costs more CPU than the statement itself there.

const globalForDb = globalThis as unknown as { darkroomDb?: PrismaClient; darkroomPool?: pg.Pool; darkroomAsyncCommitPool?: pg.Pool };

const POOL_SIZE = 20;
const ASYNC_COMMIT_POOL_SIZE = 4;

/**
 * A burst of /v1 traffic can hold every connection for a moment (the R1 drill's 4,000 creates
 * did): a transaction then waits its turn for up to 10 s rather than Prisma's 2 s, after which
 * background work (cron ticks, event dispatch, steps) failed with "Unable to start a transaction
 * in the given time". A transaction may run 20 s (Prisma: 5 s) on a machine that busy.
 */
export const TRANSACTION_OPTIONS = { maxWait: 10_000, timeout: 20_000 } as const;

/**
 * The shared pool tells a transaction opened by inTransaction which connection Prisma took for it
 * (server/base/transaction-connection.ts), so the hot statements can go to that connection directly.
 * Only the promise form of connect() is Prisma's; pool.query() uses the callback form.
 */
class TransactionAwarePool extends pg.Pool {
  override connect(): Promise<pg.PoolClient>;
  override connect(
    callback: (error: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void,
  ): void;
  override connect(callback?: (error: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void) {
    if (callback) return super.connect(callback);
    return super.connect().then((client) => {
      noteTransactionConnection(client);
      return client;
    });
  }
}

/**
 * A database that never answers a connect (dropped packets) fails that connect after maxWait, as a
 * refused one fails at once: 503 ERR3001 (database-unreachable.ts), never a request hung for good.
 * Set on the client, not the pool: the pool's own connectionTimeoutMillis also bounds the wait for
 * a free client, and a burst that queues longer than that (1,000 creates at once) is load to wait
 * through, not an outage.
 */
class ConnectTimeoutClient extends pg.Client {
  constructor(config?: pg.ClientConfig) {
    super({ ...config, connectionTimeoutMillis: TRANSACTION_OPTIONS.maxWait });
  }
}

function createPool(max: number, options?: string) {
  const url = env().DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set: boot code must start the embedded database first");
  const pool = new TransactionAwarePool({ connectionString: url, max, options, Client: ConnectTimeoutClient });
  // An idle client whose connection drops must not crash the process; the pool replaces it.
  pool.on("error", () => {});
  return pool;
}

/** The process's PostgreSQL pool, shared with Prisma. */
export function sqlPool(): pg.Pool {
  globalForDb.darkroomPool ??= createPool(POOL_SIZE);
  return globalForDb.darkroomPool;
}

/**
 * A few connections whose commits do not wait for the WAL to reach the disk (PostgreSQL's
 * synchronous_commit off), for writes whose loss in a PostgreSQL crash costs a count and nothing
 * more: rate-limit counters and request-log batches. Each /v1 request bumps a counter and waits for
 * the answer; an fsync per request cost about a millisecond of it. A commit here is visible to
 * every instance at once, like any other; only its durability lags, by up to three
 * wal_writer_delay (600 ms by default). Never for credits, keys or runs.
 */
export function asyncCommitPool(): pg.Pool {
  globalForDb.darkroomAsyncCommitPool ??= createPool(ASYNC_COMMIT_POOL_SIZE, "-c synchronous_commit=off");
  return globalForDb.darkroomAsyncCommitPool;
}

/**
 * Prisma's statements as named prepared statements: each connection parses and plans a statement
 * once, then binds and executes it (unnamed, PostgreSQL parsed and planned every one of the ~20 a
 * generation runs). The name is a hash of the SQL text, so one text has one name. The first
 * NAMED_STATEMENTS_MAX texts get names, those a process runs most (every request, create and run
 * runs them from the start); any later text runs unnamed, so a connection never holds more.
 */
const NAMED_STATEMENTS_MAX = 400;
const statementNames = new Map<string, string>();

export function prismaStatementName({ sql }: { sql: string }): string | undefined {
  const known = statementNames.get(sql);
  if (known || statementNames.size >= NAMED_STATEMENTS_MAX) return known;
  const name = `prisma-${createHash("sha1").update(sql).digest("base64url")}`;
  statementNames.set(sql, name);
  return name;
}

function createClient() {
  // The adapter passes the name on as pg's `name`, where undefined means unnamed; its type says string.
  const statementNameGenerator = prismaStatementName as (query: { sql: string }) => string;
  return new PrismaClient({ adapter: new PrismaPg(sqlPool(), { statementNameGenerator }), transactionOptions: TRANSACTION_OPTIONS });
}

export const db: PrismaClient = new Proxy({} as PrismaClient, {
  get(_target, property) {
    globalForDb.darkroomDb ??= createClient();
    const value = Reflect.get(globalForDb.darkroomDb, property);
    return typeof value === "function" ? value.bind(globalForDb.darkroomDb) : value;
  },
});

export async function disconnectDb() {
  await globalForDb.darkroomDb?.$disconnect();
  globalForDb.darkroomDb = undefined;
  const pools = [globalForDb.darkroomPool, globalForDb.darkroomAsyncCommitPool];
  globalForDb.darkroomPool = undefined;
  globalForDb.darkroomAsyncCommitPool = undefined;
  await Promise.all(pools.map((pool) => pool?.end()));
}

/** The client handed to functions that must run inside a caller's transaction. */
export type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];
export type Db = PrismaClient | Tx;
