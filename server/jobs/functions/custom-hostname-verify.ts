import "server-only";
import { OPERATOR } from "../../base/account-scope";
import { db } from "../../base/db";
import { checkHostname, recordHostnameCheck, type VerificationAttempt } from "../../hostnames/verify-hostname";
import type { ResolveOptions } from "../../hostnames/resolve-cname";
import { inTransaction } from "../../base/transaction";
import { inngest } from "../../base/events/client";
import { hostnameVerificationRequested } from "../../base/events/definitions";

// hostname/verification.requested → check the CNAME now, then again on the backoff schedule
// (verification-schedule.ts: 1, 5, 15, 30 min, hourly, then every 2 h) until it points at the
// target (`active`) or 24 h have passed (`failed`). Each check is one step; the sleeps are the
// executor's. A re-check or a removal gives the hostname a new token, and this run, holding the
// old one, ends at its next check ("superseded") without touching the row.

/** One check: the lookup outside any transaction, then its record in one. */
export async function verifyHostnameOnce(
  input: { hostnameId: string; verificationToken: string },
  options: ResolveOptions = {},
): Promise<VerificationAttempt> {
  const check = await checkHostname(db, OPERATOR, input, options);
  return "outcome" in check ? check : inTransaction((tx) => recordHostnameCheck(tx, check));
}

const MAX_CHECKS = 40; // the schedule makes about 17 in 24 h; a bound in case the clock misbehaves

export const customHostnameVerify = inngest.createFunction(
  { id: "custom-hostname-verify", triggers: [hostnameVerificationRequested], retries: 3 },
  async ({ event, step }) => {
    for (let check = 1; check <= MAX_CHECKS; check += 1) {
      const result = await step.run(`check-${check}`, () => verifyHostnameOnce(event.data));
      if (result.outcome !== "pending") return result;
      await step.sleep(`wait-${check}`, `${result.nextCheckInSeconds}s`);
    }
    return { outcome: "gave_up" as const };
  },
);
