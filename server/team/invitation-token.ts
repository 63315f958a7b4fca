import { createHash, randomBytes } from "node:crypto";

// Invitation links carry a random token; only its SHA-256 is stored (like API keys), so the
// database alone cannot accept an invitation. Links live for 7 days.

export const INVITATION_TTL_MS = 7 * 24 * 3600 * 1000;

export function newInvitationToken(now = new Date()): { token: string; tokenHash: string; expiresAt: Date } {
  const token = randomBytes(32).toString("base64url");
  return { token, tokenHash: hashInvitationToken(token), expiresAt: new Date(now.getTime() + INVITATION_TTL_MS) };
}

export function hashInvitationToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}
