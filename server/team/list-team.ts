import "server-only";
import type { Db } from "../base/db";
import type { MemberRole } from "../base/generated/prisma/enums";
import { invitationStatus } from "./invitation-status";

// The team page: every member (primary owner first, then owners, then members, oldest first) and
// the invitations still open or expired (accepted, declined and revoked ones are history).

export type TeamMember = { userId: string; email: string; name: string | null; role: MemberRole; joinedAt: Date };
export type TeamInvitation = {
  invitationId: string;
  email: string;
  role: MemberRole;
  status: "pending" | "expired";
  invitedBy: string | null;
  createdAt: Date;
  expiresAt: Date;
};

const roleOrder: Record<MemberRole, number> = { primary_owner: 0, owner: 1, member: 2 };

export async function listTeam(
  client: Db,
  accountId: string,
  now = new Date(),
): Promise<{ members: TeamMember[]; invitations: TeamInvitation[] }> {
  const [memberships, invitations] = await Promise.all([
    client.membership.findMany({
      where: { accountId },
      orderBy: { createdAt: "asc" },
      select: { role: true, createdAt: true, user: { select: { id: true, email: true, name: true } } },
    }),
    client.invitation.findMany({
      where: { accountId, acceptedAt: null, declinedAt: null, revokedAt: null },
      orderBy: { createdAt: "desc" },
    }),
  ]);
  const inviterIds = [...new Set(invitations.map((invitation) => invitation.invitedById).filter((id): id is string => id !== null))];
  const inviters = new Map(
    (await client.user.findMany({ where: { id: { in: inviterIds } }, select: { id: true, email: true } })).map((user) => [
      user.id,
      user.email,
    ]),
  );
  return {
    members: memberships
      .map((m) => ({ userId: m.user.id, email: m.user.email, name: m.user.name, role: m.role, joinedAt: m.createdAt }))
      .sort((a, b) => roleOrder[a.role] - roleOrder[b.role] || a.joinedAt.getTime() - b.joinedAt.getTime()),
    invitations: invitations.map((invitation) => ({
      invitationId: invitation.id,
      email: invitation.email,
      role: invitation.role,
      status: invitationStatus(invitation, now) === "expired" ? "expired" : "pending",
      invitedBy: invitation.invitedById ? (inviters.get(invitation.invitedById) ?? null) : null,
      createdAt: invitation.createdAt,
      expiresAt: invitation.expiresAt,
    })),
  };
}
