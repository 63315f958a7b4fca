import "server-only";
import { recordActivity } from "../activity/record-activity";
import type { Tx } from "../base/db";
import { invalidRequest } from "../base/error-table";
import { findTeamMember, lockTeam } from "./team-records";

// The primary owner hands primary ownership to another member or owner, in one transaction: they
// become primary owner, the old primary owner becomes an owner. There is always exactly one.

export async function transferPrimaryOwnership(tx: Tx, input: { accountId: string; fromUserId: string; toUserId: string }) {
  await lockTeam(tx, input.accountId);
  const from = await findTeamMember(tx, input.accountId, input.fromUserId);
  if (from.role !== "primary_owner") throw invalidRequest("Only the primary owner can transfer primary ownership.");
  if (input.toUserId === from.userId)
    throw invalidRequest("You are already the primary owner.", [{ field: "userId", message: "already the primary owner" }]);
  const to = await findTeamMember(tx, input.accountId, input.toUserId);

  await tx.membership.update({ where: { id: from.id }, data: { role: "owner" } });
  await tx.membership.update({ where: { id: to.id }, data: { role: "primary_owner" } });
  await recordActivity(tx, {
    accountId: input.accountId,
    actor: from.userId,
    category: "membership",
    action: "membership.primary_owner_transferred",
    description: `Primary ownership transferred from ${from.email} to ${to.email}`,
    metadata: { from_user_id: from.userId, to_user_id: to.userId, previous_role: to.role },
  });
  return { primaryOwnerId: to.userId, previousPrimaryOwnerId: from.userId };
}
