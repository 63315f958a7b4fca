import type pg from "pg";
import { db, sqlPool, TRANSACTION_OPTIONS, type Tx } from "./db";
import { log } from "./log";
import { withTransactionSlot, type TransactionSlot } from "./transaction-connection";

// The caller owns the transaction: a route handler, tRPC procedure, Inngest step or CLI command
// opens it with inTransaction and passes `tx` down. Work that must only happen once the rows are
// committed (events, e-mails, webhooks) is put on the transaction's outbox with afterCommit and
// run by inTransaction after the commit; a rollback drops it. No lock waits across connections.

type AfterCommitJob = { label: string; run: () => Promise<unknown> };
type TransactionOptions = {
  maxWait?: number;
  timeout?: number;
  /**
   * Opens the transaction with pg (BEGIN on a pool connection) instead of Prisma, for a body whose
   * usual path sends only statements of server/base/transaction-sql.ts: a Prisma interactive transaction
   * costs about 0.6 ms of CPU to open and close (its transaction client, BEGIN and COMMIT through
   * its engine), twice per generation. The body gets a `tx` that answers none of Prisma's API:
   * touching it rolls the pg transaction back and runs the body again from the start in a Prisma
   * transaction, so the body must be one that can run again (its statements undone, its
   * after-commit jobs dropped, nothing else done outside the database).
   */
  sqlFirst?: boolean;
};

// On globalThis, as the transaction slots are: Next's bundle and the boot script (the executor) load
// separate copies of this module, and a transaction opened by one is handed to the other (a create
// in a route handler writes its runs through the executor's store). With module-level maps the
// executor's copy found no connection for it, and its statement went the slow way, through Prisma.
const shared = globalThis as unknown as {
  __darkroomTransactionOutboxes?: WeakMap<object, AfterCommitJob[]>;
  __darkroomTransactionConnections?: WeakMap<object, TransactionSlot>;
};
const outboxes = (shared.__darkroomTransactionOutboxes ??= new WeakMap<object, AfterCommitJob[]>());
const connections = (shared.__darkroomTransactionConnections ??= new WeakMap<object, TransactionSlot>());

/** The connection `tx` holds, when inTransaction opened it and it is still open (else null). */
export function connectionOf(tx: Tx): TransactionSlot | null {
  return connections.get(tx) ?? null;
}

/** Queues `run` for after this transaction commits. The transaction must come from inTransaction. */
export function afterCommit(tx: Tx, label: string, run: () => Promise<unknown>): void {
  const outbox = outboxes.get(tx);
  if (!outbox)
    throw new Error(`afterCommit(${label}): the transaction was not opened with inTransaction, so nothing would run after it commits`);
  outbox.push({ label, run });
}

/**
 * Runs `body` in one transaction, then the after-commit jobs it queued, in order. A job that
 * fails is logged and does not undo the commit: each has a sweep that picks up what it missed.
 */
export async function inTransaction<T>(body: (tx: Tx) => Promise<T>, options?: TransactionOptions): Promise<T> {
  const { sqlFirst, ...limits } = options ?? {};
  const outbox: AfterCommitJob[] = [];
  const committed = sqlFirst ? await inSqlTransaction(body, outbox, limits) : null;
  if (!committed) outbox.length = 0;
  const result = committed
    ? committed.result
    : await withTransactionSlot((slot) =>
        db.$transaction(async (tx) => {
          outboxes.set(tx, outbox);
          connections.set(tx, slot);
          return body(tx);
        }, limits),
      );
  for (const job of outbox) {
    try {
      await job.run();
    } catch (error) {
      log.warn("after-commit job failed", { job: job.label, error: error instanceof Error ? error.message : String(error) });
    }
  }
  return result;
}

/**
 * Runs `body` under a savepoint of the caller's transaction: when it throws, its writes and the
 * after-commit jobs it queued are undone and the error is rethrown; the transaction goes on.
 */
export async function withSavepoint<T>(tx: Tx, name: string, body: () => Promise<T>): Promise<T> {
  if (!/^[a-z_]+$/.test(name)) throw new Error(`withSavepoint: "${name}" is not a savepoint name`);
  const outbox = outboxes.get(tx);
  const queued = outbox?.length ?? 0;
  await tx.$executeRawUnsafe(`SAVEPOINT ${name}`);
  try {
    const result = await body();
    await tx.$executeRawUnsafe(`RELEASE SAVEPOINT ${name}`);
    return result;
  } catch (error) {
    await tx.$executeRawUnsafe(`ROLLBACK TO SAVEPOINT ${name}`);
    outbox?.splice(queued);
    throw error;
  }
}

/** What a sqlFirst body's `tx` throws when Prisma's API is asked of it (inTransaction runs the body again under Prisma). */
class PrismaNeeded extends Error {
  constructor(property: string) {
    super(`tx.${property} needs a Prisma transaction: the body runs again in one`);
    this.name = "PrismaNeeded";
  }
}

/**
 * For a body that now knows it will need Prisma's API: in a transaction opened with pg (sqlFirst)
 * it stops here (rolled back, run again under Prisma) rather than after more statements; in a
 * Prisma transaction it does nothing.
 */
export function needPrisma(tx: Tx): void {
  void tx.$executeRaw;
}

/**
 * The body in a transaction opened with pg: its result once committed, or null when the body
 * asked for Prisma's API (rolled back; the caller runs it again under Prisma). The flag holds even
 * when the body caught what `tx` threw. maxWait and timeout as Prisma has them: the wait for a
 * connection, and the life of the transaction (past it, its statements are refused and it rolls back).
 */
async function inSqlTransaction<T>(
  body: (tx: Tx) => Promise<T>,
  outbox: AfterCommitJob[],
  limits: { maxWait?: number; timeout?: number },
): Promise<{ result: T } | null> {
  const client = await connectWithin(sqlPool(), limits.maxWait ?? TRANSACTION_OPTIONS.maxWait);
  const slot: TransactionSlot = { client, closed: false };
  let prismaNeeded = false;
  const tx = new Proxy({} as Tx, {
    get(_target, property) {
      // Awaiting or logging a value asks for these; anything else is Prisma's API.
      if (property === "then" || typeof property === "symbol") return undefined;
      prismaNeeded = true;
      throw new PrismaNeeded(property);
    },
  });
  outboxes.set(tx, outbox);
  connections.set(tx, slot);
  const timeoutMs = limits.timeout ?? TRANSACTION_OPTIONS.timeout;
  let expired = false;
  const timer = setTimeout(() => {
    expired = true;
    slot.closed = true;
  }, timeoutMs);
  let broken = false;
  try {
    await client.query("BEGIN");
    let result: T | undefined;
    try {
      result = await body(tx);
    } catch (error) {
      if (!prismaNeeded) throw error;
    }
    if (prismaNeeded) {
      await client.query("ROLLBACK");
      return null;
    }
    if (expired) throw new Error(`Transaction already closed: it ran past its timeout of ${timeoutMs} ms and was rolled back`);
    await client.query("COMMIT");
    return { result: result as T };
  } catch (error) {
    await client.query("ROLLBACK").catch(() => (broken = true));
    throw error;
  } finally {
    clearTimeout(timer);
    slot.closed = true;
    slot.client = null;
    client.release(broken);
  }
}

/** A pool connection within `maxWaitMs`, as Prisma's maxWait; one that comes later goes back to the pool. */
function connectWithin(pool: pg.Pool, maxWaitMs: number): Promise<pg.PoolClient> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const timer = setTimeout(() => {
      settled = true;
      reject(new Error(`Unable to start a transaction in the given time (${maxWaitMs} ms waiting for a connection)`));
    }, maxWaitMs);
    pool.connect().then(
      (client) => {
        if (settled) return client.release();
        settled = true;
        clearTimeout(timer);
        resolve(client);
      },
      (error: unknown) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
