import "server-only";
import { endStreamsWhere } from "./event-hub";

// Ends this process's dashboard streams at once when their access ends here: a sign-out (that
// session), "sign out everywhere" (the user's), a removal or a leave (the user's in that account),
// an account deletion (the account's). Other instances end theirs on the hub's next access check.

export type DashboardStreamsOf = { userId?: string; sessionId?: string; accountId?: string };

export function endDashboardStreams(of: DashboardStreamsOf): void {
  if (!of.userId && !of.sessionId && !of.accountId) return;
  endStreamsWhere((subscriber) => {
    const session = subscriber.session;
    if (!session) return false;
    if (of.userId && session.userId !== of.userId) return false;
    if (of.sessionId && session.sessionId !== of.sessionId) return false;
    return !of.accountId || subscriber.accountId === of.accountId;
  }, "access_lost");
}
