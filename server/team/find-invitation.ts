import "server-only";
import type { Db } from "../base/db";
import type { MemberRole } from "../base/generated/prisma/enums";
import { invitationStatus, type InvitationStatus } from "./invitation-status";
import { hashInvitationToken } from "./invitation-token";

// The accept page's view of a link: which account, which role, for which address, and where it
// stands. Null for a token that never existed or was replaced by a resend.

export type InvitationView = {
  invitationId: string;
  accountId: string;
  accountName: string;
  email: string;
  role: MemberRole;
  status: InvitationStatus;
  expiresAt: Date;
};

const TOKEN_MAX_LENGTH = 200;

export async function findInvitationByToken(client: Db, token: string): Promise<InvitationView | null> {
  if (token.length === 0 || token.length > TOKEN_MAX_LENGTH) return null;
  const invitation = await client.invitation.findUnique({
    where: { tokenHash: hashInvitationToken(token) },
    include: { account: { select: { name: true } } },
  });
  if (!invitation) return null;
  return {
    invitationId: invitation.id,
    accountId: invitation.accountId,
    accountName: invitation.account.name,
    email: invitation.email,
    role: invitation.role,
    status: invitationStatus(invitation),
    expiresAt: invitation.expiresAt,
  };
}
