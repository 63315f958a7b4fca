import "server-only";
import { OPERATOR } from "../../base/account-scope";
import { db } from "../../base/db";
import { sendRemovalRequested, sendVerificationRequested } from "../../hostnames/send-hostname-events";
import { overdueHostnames, stalledRemovals } from "../../hostnames/sweep-hostnames";
import { checkHostname, recordHostnameCheck, type VerificationAttempt } from "../../hostnames/verify-hostname";
import { inTransaction } from "../../base/transaction";
import { inngest } from "../../base/events/client";

/**
 * One sweep (server/hostnames/sweep-hostnames.ts): an overdue hostname past its 24 h gets its last
 * check (the lookup outside any transaction, then its record in one), any other overdue one its
 * verification requested again; then each stalled removal is requested again.
 */
export async function sweepHostnames(now = new Date()) {
  const finished: Array<{ hostnameId: string; outcome: VerificationAttempt["outcome"] }> = [];
  const resent: string[] = [];
  for (const { hostnameId, verificationToken, lastCheck } of await overdueHostnames(db, OPERATOR, { now })) {
    if (lastCheck) {
      const check = await checkHostname(db, OPERATOR, { hostnameId, verificationToken });
      const result = "outcome" in check ? check : await inTransaction((tx) => recordHostnameCheck(tx, check));
      finished.push({ hostnameId, outcome: result.outcome });
    } else {
      await sendVerificationRequested(hostnameId, verificationToken);
      resent.push(hostnameId);
    }
  }
  const removing = await stalledRemovals(db, OPERATOR, { now });
  for (const hostnameId of removing) await sendRemovalRequested(hostnameId, "system");
  return { resent, finished, removals_resent: removing };
}

// Every 5 minutes: picks up custom hostnames whose verification or removal event was lost.
export const customHostnameSweep = inngest.createFunction(
  { id: "custom-hostname-sweep", triggers: [{ cron: "*/5 * * * *" }], retries: 1 },
  async ({ step }) => step.run("sweep", () => sweepHostnames()),
);
