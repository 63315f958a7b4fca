import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { appUrl, env } from "../base/env";
import { storeVerificationToken } from "./adapter";
import { EMAIL_PROVIDER_ID, normalizeEmailIdentifier } from "./send-sign-in-link";

// A sign-in link minted on the server for an address whose mailbox is already proven (the
// invitation e-mail did that). It is the e-mail provider's own link: a one-time verification
// token stored through the adapter, hashed as Auth.js hashes it, opening Auth.js's callback. So
// Auth.js itself signs in: a new user and their personal account, the session (with its version),
// the sign-in activity and the consent of a first sign-in, exactly as for a magic link. The token
// is never e-mailed, only handed to the browser in a redirect, so it lives minutes, not 15.

export const MINTED_LINK_MAX_AGE_SECONDS = 5 * 60;

/** Auth.js's verification-token hash: SHA-256 of the raw token followed by the secret, in hex. */
export function hashVerificationToken(token: string, secret: string): string {
  return createHash("sha256").update(`${token}${secret}`).digest("hex");
}

/** Stores a one-time token for `email` and returns the callback URL that signs in with it, then opens `callbackPath`. */
export async function mintSignInLink(email: string, callbackPath: string, now = Date.now()): Promise<string> {
  const secret = env().AUTH_SECRET;
  if (!secret) throw new Error("AUTH_SECRET is not set: sign-in links need the runtime booted (ensureAuthSecret)");
  const identifier = normalizeEmailIdentifier(email);
  const token = randomBytes(32).toString("hex");
  await storeVerificationToken({
    identifier,
    token: hashVerificationToken(token, secret),
    expires: new Date(now + MINTED_LINK_MAX_AGE_SECONDS * 1000),
  });
  return `${appUrl()}/api/auth/callback/${EMAIL_PROVIDER_ID}?${new URLSearchParams({ callbackUrl: callbackPath, token, email: identifier })}`;
}
