import "server-only";
import type { JWT } from "next-auth/jwt";
import { readSessionState, startAuthSession } from "./auth-session";

// The jwt callback's check, on every request: the token names a live session of a user who
// exists (auth-session.ts; "Sign out" ends it), and carries the user's session version from the
// moment it was issued (`sv`; "Sign out everywhere" increments it, ending every older session).
// One lookup either way, so a copied cookie stops working as soon as its session is ended.

/**
 * `signedInUser` is set only when the token is being issued (sign-in): the session is recorded
 * then. Later calls carry just the token. Returns null to end the session.
 */
export async function checkSessionVersion(token: JWT, signedInUser: { id?: string } | undefined): Promise<JWT | null> {
  const userId = signedInUser?.id ?? token.sub;
  if (!userId) return null;
  const state = await readSessionState(userId, signedInUser ? null : token.sid);
  if (state === null) return null;
  if (signedInUser) return { ...token, sv: state.sessionVersion, sid: await startAuthSession(userId) };
  // A token without a live session (ended, expired, or issued before sessions were recorded) ends.
  if (!state.sessionLive) return null;
  // Tokens issued before versions existed carry none: they count as version 0.
  const carried = typeof token.sv === "number" ? token.sv : 0;
  return carried === state.sessionVersion ? token : null;
}
