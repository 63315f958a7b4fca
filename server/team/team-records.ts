import "server-only";
import type { Tx } from "../base/db";
import { ApiError, invalidRequest } from "../base/error-table";
import type { MemberRole } from "../base/generated/prisma/enums";
import { isGuid } from "../base/guid";

// What every team change starts with: the account's row locked (team changes of one account run
// one at a time, so "already invited" and "one primary owner" hold under concurrency), and the
// member or invitation looked up within that account only (another account's is ERR1006).

export const assignableRoles = ["owner", "member"] as const satisfies readonly MemberRole[];
export type AssignableRole = (typeof assignableRoles)[number];

export async function lockTeam(tx: Tx, accountId: string): Promise<void> {
  await tx.$queryRaw`SELECT id FROM account WHERE id = ${accountId}::uuid FOR UPDATE`;
}

export function assignableRole(role: string): AssignableRole {
  if (!(assignableRoles as readonly string[]).includes(role))
    throw invalidRequest("The role must be owner or member.", [{ field: "role", message: "must be owner or member" }]);
  return role as AssignableRole;
}

export async function findTeamMember(tx: Tx, accountId: string, userId: string) {
  const member = isGuid(userId)
    ? await tx.membership.findUnique({
        where: { accountId_userId: { accountId, userId } },
        select: { id: true, userId: true, role: true, user: { select: { email: true } } },
      })
    : null;
  if (!member) throw new ApiError("ERR1006", "Member not found.", { user_id: userId });
  return { id: member.id, userId: member.userId, role: member.role, email: member.user.email };
}

export async function findAccountInvitation(tx: Tx, accountId: string, invitationId: string) {
  const invitation = isGuid(invitationId) ? await tx.invitation.findFirst({ where: { id: invitationId, accountId } }) : null;
  if (!invitation) throw new ApiError("ERR1006", "Invitation not found.", { invitation_id: invitationId });
  return invitation;
}
