import "server-only";
import { scopeWhere, type AccountScope } from "../base/account-scope";
import type { Db } from "../base/db";
import { VERIFICATION_WINDOW_MS } from "./verification-schedule";

// What a lost event or a lost run would leave behind (the process died between a commit and its
// send): a pending hostname not checked for longer than the schedule's longest wait gets its
// verification requested again (same token, so a run that exists is not doubled); one past its
// 24 h is given its last check; a hostname `removing` for a minute is asked to be removed again.
// These are the lists; the custom-hostname-sweep function acts on each item.

const LONGEST_WAIT_MS = 2 * 60 * 60 * 1000 + 10 * 60 * 1000;
const REMOVAL_GRACE_MS = 60 * 1000;

/** A pending hostname left unchecked; `lastCheck`: past its 24 h, so it gets its last check rather than a new request. */
export type OverdueHostname = { hostnameId: string; verificationToken: string; lastCheck: boolean };

/** Pending hostnames left unchecked for longer than the schedule's longest wait (200 at most). */
export async function overdueHostnames(db: Db, scope: AccountScope, { now }: { now: Date }): Promise<OverdueHostname[]> {
  const rows = await db.customHostname.findMany({
    where: {
      ...scopeWhere(scope),
      status: "pending",
      OR: [
        { lastCheckedAt: { lt: new Date(now.getTime() - LONGEST_WAIT_MS) } },
        { lastCheckedAt: null, checkStartedAt: { lt: new Date(now.getTime() - 5 * 60 * 1000) } },
      ],
    },
    select: { id: true, verificationToken: true, checkStartedAt: true },
    take: 200,
  });
  return rows.map((row) => ({
    hostnameId: row.id,
    verificationToken: row.verificationToken,
    lastCheck: row.checkStartedAt.getTime() + VERIFICATION_WINDOW_MS < now.getTime(),
  }));
}

/** Hostnames `removing` for longer than a minute (200 at most): their ids. */
export async function stalledRemovals(db: Db, scope: AccountScope, { now }: { now: Date }): Promise<string[]> {
  const rows = await db.customHostname.findMany({
    where: { ...scopeWhere(scope), status: "removing", updatedAt: { lt: new Date(now.getTime() - REMOVAL_GRACE_MS) } },
    select: { id: true },
    take: 200,
  });
  return rows.map((row) => row.id);
}
