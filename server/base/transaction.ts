import { db, type Tx } from "./db";
import { log } from "./log";
import { withTransactionSlot, type TransactionSlot } from "./transaction-connection";

// The caller owns the transaction: a route handler, tRPC procedure, Inngest step or CLI command
// opens it with inTransaction and passes `tx` down. Work that must only happen once the rows are
// committed (events, e-mails, webhooks) is put on the transaction's outbox with afterCommit and
// run by inTransaction after the commit; a rollback drops it. No lock waits across connections.

type AfterCommitJob = { label: string; run: () => Promise<unknown> };
/** As Prisma has them: the wait for a connection, and the life of the transaction. */
type TransactionOptions = { maxWait?: number; timeout?: number };

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
  const outbox: AfterCommitJob[] = [];
  const result = await withTransactionSlot((slot) =>
    db.$transaction(async (tx) => {
      outboxes.set(tx, outbox);
      connections.set(tx, slot);
      return body(tx);
    }, options),
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
