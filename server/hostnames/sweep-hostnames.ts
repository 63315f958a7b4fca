import "server-only";
import { db } from "../db";
import { sendRemovalRequested, sendVerificationRequested } from "./send-hostname-events";
import { OPERATOR } from "../account-scope";
import { inTransaction } from "../transaction";
import { checkHostname, recordHostnameCheck, type VerificationAttempt } from "./verify-hostname";
import { VERIFICATION_WINDOW_MS } from "./verification-schedule";

// What a lost event or a lost run would leave behind (the process died between a commit and its
// send): a pending hostname not checked for longer than the schedule's longest wait gets its
// verification requested again (same token, so a run that exists is not doubled); one past its
// 24 h is given its last check here; a hostname `removing` for a minute is asked to be removed again.

const LONGEST_WAIT_MS = 2 * 60 * 60 * 1000 + 10 * 60 * 1000;
const REMOVAL_GRACE_MS = 60 * 1000;

export async function sweepHostnames(now = new Date()) {
  const overdue = await db.customHostname.findMany({
    where: { status: "pending", OR: [{ lastCheckedAt: { lt: new Date(now.getTime() - LONGEST_WAIT_MS) } }, { lastCheckedAt: null, checkStartedAt: { lt: new Date(now.getTime() - 5 * 60 * 1000) } }] },
    select: { id: true, verificationToken: true, checkStartedAt: true },
    take: 200,
  });
  const finished: Array<{ hostnameId: string; outcome: VerificationAttempt["outcome"] }> = [];
  const resent: string[] = [];
  for (const row of overdue) {
    if (row.checkStartedAt.getTime() + VERIFICATION_WINDOW_MS < now.getTime()) {
      const check = await checkHostname(db, OPERATOR, { hostnameId: row.id, verificationToken: row.verificationToken });
      const result = "outcome" in check ? check : await inTransaction((tx) => recordHostnameCheck(tx, check));
      finished.push({ hostnameId: row.id, outcome: result.outcome });
    } else {
      await sendVerificationRequested(row.id, row.verificationToken);
      resent.push(row.id);
    }
  }
  const removing = await db.customHostname.findMany({ where: { status: "removing", updatedAt: { lt: new Date(now.getTime() - REMOVAL_GRACE_MS) } }, select: { id: true }, take: 200 });
  for (const row of removing) await sendRemovalRequested(row.id, "system");
  return { resent, finished, removals_resent: removing.map((row) => row.id) };
}
