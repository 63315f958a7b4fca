import "server-only";
import { getToken } from "next-auth/jwt";
import { appUrl, env } from "../base/env";
import { checkSessionVersion } from "./session-version";

// The signed-in session behind a request, with what names it on the server: the user, the session
// row (`sid`, auth-session.ts) and the session version it was issued with (`sv`). The live feed
// keeps them to end its stream when that session ends (server/live/dashboard-access.ts).
// The same checks as every request's jwt callback (session-version.ts).

export type SignedInSession = { userId: string; sessionId: string; sessionVersion: number };

export async function readSignedInSession(request: Request): Promise<SignedInSession | null> {
  const secureCookie = new URL(appUrl()).protocol === "https:";
  // Only the cookie: getToken would also take a Bearer header, which dashboard requests never carry.
  const cookie = request.headers.get("cookie") ?? "";
  const token = await getToken({ req: { headers: { cookie } }, secret: env().AUTH_SECRET, secureCookie });
  if (!token) return null;
  const checked = await checkSessionVersion(token, undefined);
  if (!checked?.sub || typeof checked.sid !== "string") return null;
  return { userId: checked.sub, sessionId: checked.sid, sessionVersion: typeof checked.sv === "number" ? checked.sv : 0 };
}
