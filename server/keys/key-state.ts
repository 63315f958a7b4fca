import "server-only";
import type { ApiKeyStatus } from "../base/generated/prisma/enums";

// The state a key is in at a moment, for the auth checkpoint and the
// request log. Precedence: revoked, then expired, then rotated (accepted until its grace ends).

export type KeyState = "active" | "expired" | "rotated" | "revoked";

export type KeyStateFields = {
  status: ApiKeyStatus;
  expiresAt: Date | null;
  graceEndsAt: Date | null;
};

export type KeyStateAt = { state: KeyState; acceptsRequests: boolean };

export function keyStateAt(key: KeyStateFields, now: Date = new Date()): KeyStateAt {
  const time = now.getTime();
  if (key.status === "revoked") return { state: "revoked", acceptsRequests: false };
  // Both boundaries are exclusive: at expires_at (or grace_ends_at) the key stops working.
  if (key.expiresAt && key.expiresAt.getTime() <= time) return { state: "expired", acceptsRequests: false };
  if (key.status === "rotated") {
    return { state: "rotated", acceptsRequests: key.graceEndsAt !== null && time < key.graceEndsAt.getTime() };
  }
  return { state: "active", acceptsRequests: true };
}
