import "server-only";
import { db } from "../base/db";
import { isGuid } from "../base/guid";

// The server's record of each signed-in browser (the auth_session table). Sessions are JWTs, which
// a server cannot take back once issued; so each carries the id of its row (`sid`), and the jwt
// callback honours it only while the row lives. "Sign out" deletes the row: a copy of the cookie
// taken before ends with it. (Auth.js's own `jti` is new each time it re-encodes the token, so it
// cannot name the session.) Rows expire as the cookie does, sliding with use.

export const SESSION_MAX_AGE_SECONDS = 30 * 24 * 3600;
/** A used session's expiry moves forward at most this often: one write a day, not one a request. */
const SESSION_EXTEND_AFTER_SECONDS = 24 * 3600;

/** Records a new session of `userId` and returns its id; drops sessions that have expired. */
export async function startAuthSession(userId: string, now = Date.now()): Promise<string> {
  const session = await db.authSession.create({
    data: { userId, expiresAt: new Date(now + SESSION_MAX_AGE_SECONDS * 1000) },
    select: { id: true },
  });
  await db.$executeRaw`DELETE FROM auth_session WHERE expires_at < ${new Date(now)}`;
  return session.id;
}

export type SessionState = { sessionVersion: number; sessionLive: boolean };

/**
 * The user's session version and whether session `sid` of that user is live, in one primary-key
 * lookup (the jwt callback runs on every request). Null when the user does not exist.
 */
export async function readSessionState(userId: string, sid: unknown, now = Date.now()): Promise<SessionState | null> {
  if (!isGuid(userId)) return null;
  const sessionId = isGuid(sid) ? sid : null;
  const [row] = await db.$queryRaw<Array<{ sessionVersion: number; expiresAt: Date | null }>>`
    SELECT u.session_version AS "sessionVersion", s.expires_at AS "expiresAt"
    FROM "user" u LEFT JOIN auth_session s ON s.id = ${sessionId}::uuid AND s.user_id = u.id
    WHERE u.id = ${userId}::uuid`;
  if (!row) return null;
  const expiresAt = row.expiresAt?.getTime() ?? 0;
  if (expiresAt > now && expiresAt < now + (SESSION_MAX_AGE_SECONDS - SESSION_EXTEND_AFTER_SECONDS) * 1000) {
    await db.authSession.updateMany({ where: { id: sessionId! }, data: { expiresAt: new Date(now + SESSION_MAX_AGE_SECONDS * 1000) } });
  }
  return { sessionVersion: row.sessionVersion, sessionLive: expiresAt > now };
}

/** "Sign out": that session ends, wherever a copy of its cookie is. */
export async function endAuthSession(userId: string, sid: unknown): Promise<void> {
  if (!isGuid(userId) || !isGuid(sid)) return;
  await db.authSession.deleteMany({ where: { id: sid, userId } });
}
