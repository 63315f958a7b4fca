import "server-only";
import { randomUUID } from "node:crypto";
import type { PoolClient } from "pg";
import { sqlPool } from "../base/db";
import { log } from "../base/log";
import { onShutdown } from "../base/shutdown";

// Stream caps counted in PostgreSQL, so they hold across instances (issue #43). Each open stream
// holds a lease row of this process's instance row; the instance renews its expiry on the hub's
// tick, and a cap counts only the leases of instances still live: an instance that dies frees its
// slots within INSTANCE_TTL_SECONDS. A claim counts and inserts under transaction advisory locks
// (the account's, then the session's), so two instances cannot both take the last slot.

const ACCOUNT_LOCK_CLASS = 27766;
const SESSION_LOCK_CLASS = 27767;
const INSTANCE_TTL_SECONDS = 10;
/** A claim renews the instance row itself when the tick has not for this long (an idle process). */
const CLAIM_RENEWS_AFTER_MS = (INSTANCE_TTL_SECONDS * 1000) / 2;
/** Rows of instances dead this long are deleted (their leases with them). */
const DEAD_INSTANCE_GRACE_SECONDS = 60;

export type LeaseKind = "api" | "dashboard";

export type LeaseClaim = {
  kind: LeaseKind;
  accountId: string;
  /** Leases of `kind` the account may hold across instances. */
  accountLimit: number;
  /** The dashboard session claiming, and the leases it may hold across instances and accounts. */
  session?: { sessionId: string; limit: number };
};

export type LeaseAnswer = { leaseId: string } | { refused: "account" | "session"; limit: number; held: number };

/** A lease this process holds, kept whole so a renewal can put its row back. */
type HeldLease = { kind: LeaseKind; accountId: string; sessionId: string | null };

/**
 * `claiming`: ids of claims in flight (not yet inserted, never swept nor put back); `held`: the
 * leases inserted and still held. `renewedAt`: when the instance row was last renewed (ms); a claim
 * renews it first when this is old.
 */
type LeaseState = { instanceId: string; claiming: Set<string>; held: Map<string, HeldLease>; renewedAt: number; shutdownHooked: boolean };

const globalLeases = globalThis as unknown as { darkroomStreamLeases?: LeaseState };

function leases(): LeaseState {
  globalLeases.darkroomStreamLeases ??= {
    instanceId: randomUUID(),
    claiming: new Set(),
    held: new Map(),
    renewedAt: 0,
    shutdownHooked: false,
  };
  return globalLeases.darkroomStreamLeases;
}

// Renews the instance row; when the row had to be created again (another instance's sweep deleted
// it after this one's renewals failed for a minute, and its leases went with it), the same statement
// puts back the leases this process still holds, so its open streams count again.
const RENEW_INSTANCE = `WITH instance AS (
  INSERT INTO stream_instance (id, expires_at) VALUES ($1, now() + make_interval(secs => ${INSTANCE_TTL_SECONDS}))
  ON CONFLICT (id) DO UPDATE SET expires_at = excluded.expires_at
  RETURNING (xmax = 0) AS created)
INSERT INTO stream_lease (id, instance_id, kind, account_id, session_id)
SELECT held.id, $1, held.kind, held.account_id, held.session_id
  FROM unnest($2::uuid[], $3::text[], $4::uuid[], $5::uuid[]) AS held (id, kind, account_id, session_id)
 WHERE (SELECT created FROM instance)
ON CONFLICT (id) DO NOTHING`;

const COUNT_HELD = `SELECT count(*) FILTER (WHERE l.account_id = $1 AND l.kind = $2)::int AS account_held,
       count(*) FILTER (WHERE l.session_id = $3)::int AS session_held
  FROM stream_lease l JOIN stream_instance i ON i.id = l.instance_id
 WHERE i.expires_at > now() AND ((l.account_id = $1 AND l.kind = $2) OR l.session_id = $3)`;

async function renewInstance(state: LeaseState) {
  const held = [...state.held];
  await sqlPool().query(RENEW_INSTANCE, [
    state.instanceId,
    held.map(([leaseId]) => leaseId),
    held.map(([, lease]) => lease.kind),
    held.map(([, lease]) => lease.accountId),
    held.map(([, lease]) => lease.sessionId),
  ]);
  state.renewedAt = Date.now();
}

/** Takes a lease when the account (and the session) is under its cap; else says which cap. */
export async function claimStreamLease(claim: LeaseClaim): Promise<LeaseAnswer> {
  const state = leases();
  hookShutdown(state);
  const leaseId = randomUUID();
  const lease: HeldLease = { kind: claim.kind, accountId: claim.accountId, sessionId: claim.session?.sessionId ?? null };
  // Claiming before it exists: the renewal's sweep of unheld leases must never take a fresh one.
  state.claiming.add(leaseId);
  let client: PoolClient | null = null;
  try {
    // Outside the transaction: the instance row is not held locked while the claim waits.
    if (Date.now() - state.renewedAt > CLAIM_RENEWS_AFTER_MS) await renewInstance(state);
    client = await sqlPool().connect();
    await client.query("BEGIN");
    // The account's lock, then the session's (always in this order, so no two claims wait on each other).
    await client.query(`SELECT pg_advisory_xact_lock(${ACCOUNT_LOCK_CLASS}, hashtext($1))`, [claim.accountId]);
    if (claim.session) await client.query(`SELECT pg_advisory_xact_lock(${SESSION_LOCK_CLASS}, hashtext($1))`, [claim.session.sessionId]);
    const { rows } = await client.query<{ account_held: number; session_held: number }>(COUNT_HELD, [
      claim.accountId,
      claim.kind,
      claim.session?.sessionId ?? null,
    ]);
    const accountHeld = rows[0]?.account_held ?? 0;
    const sessionHeld = rows[0]?.session_held ?? 0;
    let answer: LeaseAnswer = { leaseId };
    if (accountHeld >= claim.accountLimit) answer = { refused: "account", limit: claim.accountLimit, held: accountHeld };
    else if (claim.session && sessionHeld >= claim.session.limit)
      answer = { refused: "session", limit: claim.session.limit, held: sessionHeld };
    else {
      await client.query("INSERT INTO stream_lease (id, instance_id, kind, account_id, session_id) VALUES ($1, $2, $3, $4, $5)", [
        leaseId,
        state.instanceId,
        lease.kind,
        lease.accountId,
        lease.sessionId,
      ]);
    }
    await client.query("COMMIT");
    if ("leaseId" in answer) state.held.set(leaseId, lease);
    state.claiming.delete(leaseId);
    return answer;
  } catch (error) {
    state.claiming.delete(leaseId);
    await client?.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    client?.release();
  }
}

/** Gives the lease back; a failed delete is retried by the next renewal's sweep. */
export function releaseStreamLease(leaseId: string): void {
  const state = leases();
  if (!state.held.delete(leaseId)) return;
  sqlPool()
    .query("DELETE FROM stream_lease WHERE id = $1", [leaseId])
    .catch(() => undefined);
}

/**
 * Keeps this instance's leases counted (renews its row, putting back the leases it holds when the
 * row was deleted meanwhile), drops its rows for streams no longer held (a release whose delete
 * failed), and deletes long-dead instances. Called on the hub's tick.
 */
export async function renewStreamLeases(): Promise<void> {
  const state = leases();
  if (state.held.size === 0 && state.claiming.size === 0) return;
  try {
    await renewInstance(state);
    const kept = [...state.held.keys(), ...state.claiming];
    await sqlPool().query("DELETE FROM stream_lease WHERE instance_id = $1 AND id <> ALL($2::uuid[])", [state.instanceId, kept]);
    await sqlPool().query(`DELETE FROM stream_instance WHERE expires_at < now() - make_interval(secs => ${DEAD_INSTANCE_GRACE_SECONDS})`);
  } catch (error) {
    log.warn("stream lease renewal failed; retrying on the next tick", { error: error instanceof Error ? error.message : String(error) });
  }
}

function hookShutdown(state: LeaseState) {
  if (state.shutdownHooked) return;
  state.shutdownHooked = true;
  // A clean stop frees this instance's slots at once (its leases go with its row).
  onShutdown("stream-leases", async () => {
    state.held.clear();
    await sqlPool()
      .query("DELETE FROM stream_instance WHERE id = $1", [state.instanceId])
      .catch(() => undefined);
  });
}
