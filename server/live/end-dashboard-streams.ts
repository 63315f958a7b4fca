import "server-only";
import { endStreamsWhere } from "./event-hub";

// Ends this process's dashboard streams at once when their access ends here: a sign-out (that
// session), "sign out everywhere" (the user's), a removal or a leave (the user's in that account),
// an account deletion (the account's). Other instances end theirs on the hub's next access check.

/** Whose streams end: one session's, a user's, a user's in one account, or one account's. */
export type DashboardStreamsOf =
  { sessionId: string } | { userId: string } | { userId: string; accountId: string } | { accountId: string; everyMember: true };

export function endDashboardStreams(of: DashboardStreamsOf): void {
  endStreamsWhere((subscriber) => {
    const session = subscriber.session;
    if (!session) return false;
    if ("sessionId" in of) return session.sessionId === of.sessionId;
    if ("userId" in of && session.userId !== of.userId) return false;
    return !("accountId" in of) || subscriber.accountId === of.accountId;
  }, "access_lost");
}
