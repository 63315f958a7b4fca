import "server-only";
import { recordActivity } from "../activity/record-activity";
import type { Tx } from "../base/db";
import { invalidRequest } from "../base/error-table";
import { findTeamMember, lockTeam } from "./team-records";

// Owners remove a member or owner; a member or owner leaves on their own, unless it is their only
// account. Nobody removes the primary owner, and the primary owner cannot leave: they transfer
// primary ownership first.

export async function removeMember(tx: Tx, input: { accountId: string; userId: string; actor: string }) {
  await lockTeam(tx, input.accountId);
  const member = await findTeamMember(tx, input.accountId, input.userId);
  if (member.role === "primary_owner") throw invalidRequest("The primary owner cannot be removed.");
  await tx.membership.delete({ where: { id: member.id } });
  await recordActivity(tx, {
    accountId: input.accountId,
    actor: input.actor,
    category: "membership",
    action: "membership.removed",
    description: `${member.email} removed from the account`,
    metadata: { user_id: member.userId, role: member.role },
  });
  return { userId: member.userId };
}

export async function leaveAccount(tx: Tx, input: { accountId: string; userId: string }) {
  await lockTeam(tx, input.accountId);
  const member = await findTeamMember(tx, input.accountId, input.userId);
  if (member.role === "primary_owner")
    throw invalidRequest("The primary owner cannot leave the account. Transfer primary ownership to another member first.");
  // Sign-in lands in one of the user's accounts and only a first sign-in creates one: leaving the
  // last would lock them out. The user's row is locked so two leaves at once cannot both pass.
  await tx.$queryRaw`SELECT id FROM "user" WHERE id = ${member.userId}::uuid FOR UPDATE`;
  const elsewhere = await tx.membership.count({ where: { userId: member.userId, accountId: { not: input.accountId } } });
  if (elsewhere === 0)
    throw invalidRequest(
      "This is your only account, so you cannot leave it: you would have no account to sign in to. Create another account from the account switcher first.",
    );
  await tx.membership.delete({ where: { id: member.id } });
  await recordActivity(tx, {
    accountId: input.accountId,
    actor: member.userId,
    category: "membership",
    action: "membership.left",
    description: `${member.email} left the account`,
    metadata: { user_id: member.userId, role: member.role },
  });
  return { userId: member.userId };
}
