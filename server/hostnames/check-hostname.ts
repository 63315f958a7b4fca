import "server-only";
import { randomUUID } from "node:crypto";
import { recordActivity, type ActivityActor } from "../activity/record-activity";
import type { Tx } from "../base/db";
import { ApiError, invalidRequest } from "../base/error-table";
import { afterCommit } from "../base/transaction";
import { toCustomHostnameRecord, type CustomHostnameRecord } from "./hostname-record";
import { requireEnterprise } from "./require-enterprise";
import { sendVerificationRequested } from "./send-hostname-events";

// A re-check: a `pending` or `failed` hostname goes back to `pending` with a fresh 24 h window and
// a new token (a verification still running for the old one stops at its next step), and is
// checked at once. An `active` hostname stays active: there is nothing to wait for.

export async function findAccountHostname(tx: Tx, accountId: string) {
  const row = await tx.customHostname.findUnique({ where: { accountId } });
  if (!row) throw new ApiError("ERR1006", "This account has no custom hostname.", { account_id: accountId });
  return row;
}

export async function requestHostnameCheck(tx: Tx, input: { accountId: string; actor: ActivityActor }): Promise<CustomHostnameRecord> {
  const current = await findAccountHostname(tx, input.accountId);
  if (current.status === "removing")
    throw invalidRequest(`${current.hostname} is being removed.`, [{ field: "hostname", message: "being removed" }]);
  if (current.status === "active") return toCustomHostnameRecord(current);
  await requireEnterprise(tx, input.accountId);

  const verificationToken = randomUUID();
  const row = await tx.customHostname.update({
    where: { id: current.id },
    data: { status: "pending", verificationToken, checkStartedAt: new Date(), attempts: 0, lastError: null },
  });
  await recordActivity(tx, {
    accountId: input.accountId,
    actor: input.actor,
    category: "domain",
    action: "domain.check_requested",
    description: `Check of custom hostname ${row.hostname} requested (was ${current.status})`,
    metadata: { hostname: row.hostname, previous_status: current.status },
  });
  afterCommit(tx, "hostname verification requested", () => sendVerificationRequested(row.id, verificationToken));
  return toCustomHostnameRecord(row);
}
