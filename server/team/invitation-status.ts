// Where an invitation stands. Only a pending one can be accepted, declined, resent or revoked.

export type InvitationStatus = "pending" | "accepted" | "declined" | "revoked" | "expired";

type InvitationDates = { acceptedAt: Date | null; declinedAt: Date | null; revokedAt: Date | null; expiresAt: Date };

export function invitationStatus(invitation: InvitationDates, now = new Date()): InvitationStatus {
  if (invitation.acceptedAt) return "accepted";
  if (invitation.declinedAt) return "declined";
  if (invitation.revokedAt) return "revoked";
  return invitation.expiresAt <= now ? "expired" : "pending";
}

/** The Prisma `where` fragment of a pending invitation. */
export function pendingWhere(now = new Date()) {
  return { acceptedAt: null, declinedAt: null, revokedAt: null, expiresAt: { gt: now } };
}
