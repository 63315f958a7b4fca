import { Prisma } from "../../base/generated/prisma/client";

// The finish's locking read, shared by its two paths: the transaction's (lockWithAttempt in
// finish-generation.ts) and the one statement's (settle-success.ts, as a WITH item).

export type LockedWithAttempt = {
  id: string;
  account_id: string;
  status: string;
  created_at: Date;
  deadline_at: Date | null;
  provider_used: string | null;
  prediction_id: string | null;
  attempt_id: string;
  attempt_started_at: Date;
  attempt_outcome: string;
  provider: string;
  completed_subscribed: boolean;
  balance: string;
  reserved_amount: string | null;
  reserved_model: string | null;
  settled_by: string | null;
};

/**
 * The attempt and its generation, the generation locked, then its account locked with its balance
 * (the lock every credit movement takes), the generation's reservation and whether it was settled,
 * and whether an endpoint of the account takes generation.completed (so most finishes skip that
 * read): one statement. The locking clause names the generation first, and PostgreSQL takes the row
 * locks in that order, as every other transaction that locks both does (cancel, deadline, failure).
 *
 * The ledger read shares the statement's snapshot, taken before any lock wait, so it may miss a
 * settlement committed by the holder it waited for. It is used only when the generation, read
 * after the wait, is still in flight, and then nothing can have been missed: the reserve commits
 * with the generation's record, before its run starts; every charge and refund of a generation
 * (this finish, a failure, a cancel, the deadline) commits with its move out of flight, under
 * this same row lock.
 */
export function lockingRead(generationId: string, attempt: number): Prisma.Sql {
  return Prisma.sql`
    SELECT g.id, g.account_id, g.status, g.created_at, g.deadline_at, g.provider_used, g.prediction_id, a.id AS attempt_id, a.started_at AS attempt_started_at,
           a.outcome::text AS attempt_outcome, a.provider, acc.credit_balance::text AS balance,
           EXISTS (SELECT 1 FROM webhook_endpoint e WHERE e.account_id = g.account_id AND 'generation.completed' = ANY (e.events)) AS completed_subscribed,
           r.amount::text AS reserved_amount, r.model_identifier AS reserved_model,
           (SELECT s.type::text FROM ledger_entry s WHERE s.account_id = g.account_id AND s.generation_id = g.id AND s.type IN ('charge', 'refund') LIMIT 1) AS settled_by
      FROM provider_attempt a JOIN generation g ON g.id = a.generation_id JOIN account acc ON acc.id = g.account_id
      LEFT JOIN ledger_entry r ON r.account_id = g.account_id AND r.generation_id = g.id AND r.type = 'reserve'
     WHERE a.generation_id = ${generationId}::uuid AND a.attempt_number = ${attempt}
       FOR UPDATE OF g FOR NO KEY UPDATE OF acc`;
}
