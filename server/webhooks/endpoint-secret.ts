import { randomBytes } from "node:crypto";

// A signing secret: `whsec_` + 32 random bytes, base64url. Shown once (create and roll); stored as
// is, because signing needs the secret itself, not a hash of it.

export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64url")}`;
}
