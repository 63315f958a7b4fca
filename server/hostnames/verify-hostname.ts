import "server-only";
import { recordActivity } from "../activity/record-activity";
import { scopeWhere, type AccountScope } from "../base/account-scope";
import type { Db, Tx } from "../base/db";
import { afterCommit } from "../base/transaction";
import { forgetActiveHostnames } from "./active-hostnames";
import { cnameProblem, resolveCname, type ResolveOptions } from "./resolve-cname";
import { nextCheckInSeconds, verificationDeadline } from "./verification-schedule";

// One check of a pending hostname's CNAME (a step of custom-hostname-verify): the lookup outside any
// transaction (checkHostname), then, in the caller's transaction, its record (recordHostnameCheck),
// only if the hostname still holds this verification's token and is pending, so overlapping or
// stale runs change nothing.

export type VerificationAttempt =
  | { outcome: "superseded" }
  | { outcome: "active"; attempts: number }
  | { outcome: "failed"; attempts: number; error: string }
  | { outcome: "pending"; attempts: number; error: string; nextCheckInSeconds: number };

/** A CNAME lookup made for a pending hostname, to be recorded by recordHostnameCheck. */
export type HostnameCheck = {
  hostname: { id: string; accountId: string; hostname: string; target: string; checkStartedAt: Date };
  verificationToken: string;
  problem: string | null;
  now: Date;
  attempts: number;
  next: number | null;
};

/** The lookup, outside any transaction: "superseded" when the hostname no longer waits for this verification. */
export async function checkHostname(
  db: Db,
  scope: AccountScope,
  input: { hostnameId: string; verificationToken: string },
  options: ResolveOptions = {},
): Promise<HostnameCheck | { outcome: "superseded" }> {
  const before = await db.customHostname.findFirst({ where: { id: input.hostnameId, ...scopeWhere(scope) } });
  if (!before || before.status !== "pending" || before.verificationToken !== input.verificationToken) return { outcome: "superseded" };

  const lookup = await resolveCname(before.hostname, options);
  const problem = cnameProblem(before.hostname, lookup, before.target);
  const now = new Date();
  const attempts = before.attempts + 1;
  const next = problem === null ? null : nextCheckInSeconds(attempts, before.checkStartedAt, now);
  return { hostname: before, verificationToken: input.verificationToken, problem, now, attempts, next };
}

/** Records a lookup in the caller's transaction, only if the hostname still holds its token and is pending. */
export async function recordHostnameCheck(tx: Tx, check: HostnameCheck): Promise<VerificationAttempt> {
  const { hostname: before, verificationToken, problem, now, attempts, next } = check;
  const status = problem === null ? "active" : next === null ? "failed" : "pending";
  const updated = await tx.customHostname.updateMany({
    where: { id: before.id, status: "pending", verificationToken },
    data: {
      status,
      attempts: { increment: 1 },
      lastCheckedAt: now,
      lastError: problem,
      ...(status === "active" ? { verifiedAt: now } : {}),
    },
  });
  if (updated.count === 0) return { outcome: "superseded" };
  if (status === "active") {
    await recordActivity(tx, {
      accountId: before.accountId,
      actor: "system",
      category: "domain",
      action: "domain.verified",
      description: `Custom hostname ${before.hostname} verified: its CNAME points at ${before.target}`,
      metadata: { hostname: before.hostname, target: before.target, attempts },
    });
    afterCommit(tx, "hostname cache", async () => forgetActiveHostnames());
    return { outcome: "active", attempts };
  }
  if (status === "failed") {
    await recordActivity(tx, {
      accountId: before.accountId,
      actor: "system",
      category: "domain",
      action: "domain.verification_failed",
      description: `Custom hostname ${before.hostname} failed verification after ${attempts} checks in 24 h: ${problem}`,
      metadata: {
        hostname: before.hostname,
        target: before.target,
        attempts,
        deadline: verificationDeadline(before.checkStartedAt).toISOString(),
      },
    });
    return { outcome: "failed", attempts, error: problem as string };
  }
  return { outcome: "pending", attempts, error: problem as string, nextCheckInSeconds: next as number };
}
