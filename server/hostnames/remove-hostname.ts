import "server-only";
import { randomUUID } from "node:crypto";
import { recordActivity, type ActivityActor } from "../activity/record-activity";
import type { Tx } from "../base/db";
import { afterCommit } from "../base/transaction";
import { forgetActiveHostnames } from "./active-hostnames";
import { findAccountHostname } from "./check-hostname";
import { toCustomHostnameRecord, type CustomHostnameRecord } from "./hostname-record";
import { sendRemovalRequested } from "./send-hostname-events";

// Taking a hostname down: it becomes `removing` at once (no longer served, its verification
// stopped by a new token) and custom-hostname-remove deletes the row. Open to every plan.
// Asking again while it is removing asks the function again (the event id keeps it to one run).

export async function removeCustomHostname(tx: Tx, input: { accountId: string; actor: ActivityActor }): Promise<CustomHostnameRecord> {
  const current = await findAccountHostname(tx, input.accountId);
  let row = current;
  if (current.status !== "removing") {
    row = await tx.customHostname.update({ where: { id: current.id }, data: { status: "removing", verificationToken: randomUUID() } });
    await recordActivity(tx, {
      accountId: input.accountId,
      actor: input.actor,
      category: "domain",
      action: "domain.removal_requested",
      description: `Removal of custom hostname ${row.hostname} requested`,
      metadata: { hostname: row.hostname, previous_status: current.status },
    });
  }
  afterCommit(tx, "hostname cache", async () => forgetActiveHostnames());
  afterCommit(tx, "hostname removal requested", () => sendRemovalRequested(row.id, input.actor));
  return toCustomHostnameRecord(row);
}

/** The removal function's step: deletes a `removing` hostname once, with its `domain.removed` event. */
export async function deleteRemovedHostname(
  tx: Tx,
  input: { hostnameId: string; actor: ActivityActor },
): Promise<{ deleted: boolean; hostname: string | null }> {
  const row = await tx.customHostname.findUnique({ where: { id: input.hostnameId } });
  if (!row || row.status !== "removing") return { deleted: false, hostname: row?.hostname ?? null };
  await tx.customHostname.delete({ where: { id: row.id } });
  await recordActivity(tx, {
    accountId: row.accountId,
    actor: input.actor,
    category: "domain",
    action: "domain.removed",
    description: `Custom hostname ${row.hostname} removed`,
    metadata: { hostname: row.hostname },
  });
  afterCommit(tx, "hostname cache", async () => forgetActiveHostnames());
  return { deleted: true, hostname: row.hostname };
}
