import "server-only";
import { recordActivity } from "../activity/record-activity";
import type { Tx } from "../base/db";
import { invalidRequest } from "../base/error-table";
import { assignableRole, findTeamMember, lockTeam } from "./team-records";

// Owners make a member an owner or an owner a member. The primary owner's role changes only by
// transferring primary ownership.

export async function changeMemberRole(tx: Tx, input: { accountId: string; userId: string; role: string; actor: string }) {
  const role = assignableRole(input.role);
  await lockTeam(tx, input.accountId);
  const member = await findTeamMember(tx, input.accountId, input.userId);
  if (member.role === "primary_owner")
    throw invalidRequest("The primary owner cannot be demoted. They can transfer primary ownership to another member first.");
  if (member.role === role) return { userId: member.userId, role, changed: false };

  await tx.membership.update({ where: { id: member.id }, data: { role } });
  await recordActivity(tx, {
    accountId: input.accountId,
    actor: input.actor,
    category: "membership",
    action: "membership.role_changed",
    description: `${member.email} is now ${role} (was ${member.role})`,
    metadata: { user_id: member.userId, role, previous_role: member.role },
  });
  return { userId: member.userId, role, changed: true };
}
