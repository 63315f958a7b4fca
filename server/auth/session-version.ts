import "server-only";
import type { JWT } from "next-auth/jwt";
import { z } from "zod";
import { db } from "../db";

// "Sign out everywhere" for JWT sessions. A token carries the user's session version from the
// moment it was issued (`sv`); on every request the version is read again (one primary-key
// lookup) and a token with an older one, or of a user who no longer exists, ends its session:
// a copied cookie stops working as soon as the user signs out everywhere.

async function currentSessionVersion(userId: string): Promise<number | null> {
  if (!z.guid().safeParse(userId).success) return null;
  const user = await db.user.findUnique({ where: { id: userId }, select: { sessionVersion: true } });
  return user?.sessionVersion ?? null;
}

/**
 * The Auth.js `jwt` callback's check. `signedInUser` is set only when the token is being issued
 * (sign-in); later calls carry just the token. Returns null to end the session.
 */
export async function checkSessionVersion(token: JWT, signedInUser: { id?: string } | undefined): Promise<JWT | null> {
  const userId = signedInUser?.id ?? token.sub;
  if (!userId) return null;
  const current = await currentSessionVersion(userId);
  if (current === null) return null;
  if (signedInUser) return { ...token, sv: current };
  // Tokens issued before versions existed carry none: they count as version 0.
  const carried = typeof token.sv === "number" ? token.sv : 0;
  return carried === current ? token : null;
}
