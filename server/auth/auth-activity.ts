import "server-only";
import { headers } from "next/headers";
import { recordActivity } from "../activity/record-activity";
import { acceptLegalTermsAtSignIn } from "../consent/accept-legal-terms";
import { db, type Tx } from "../base/db";
import { counterStore } from "../rate-limit/counter-store";
import { inTransaction } from "../base/transaction";
import { userAgentFamily, type UserAgentFamily } from "./user-agent-family";

// The `auth` activity: sign-in, sign-out and refused sign-in links, recorded on each account of
// the user (actor: the user). Never the link's token, never the IP: the metadata holds the
// browser family at most. Refusals are recorded only for addresses of existing users, at most
// REFUSALS_PER_WINDOW per address per window, so nobody can flood a feed by asking for links.

export type SignInRefusal = "rate_limited" | "link_expired" | "link_used";

const refusalDescriptions: Record<SignInRefusal, string> = {
  rate_limited: "Sign-in link refused: too many links were asked for this address",
  link_expired: "Sign-in refused: the link had expired",
  link_used: "Sign-in refused: the link was already used",
};

export const REFUSALS_PER_WINDOW = 3;
const REFUSAL_WINDOW_SECONDS = 10 * 60;

/** The browser family of the request being served (Auth.js events run inside it), or "unknown". */
async function requestBrowser(): Promise<UserAgentFamily> {
  try {
    return userAgentFamily((await headers()).get("user-agent"));
  } catch {
    // Called outside a request (a script, a test): there is no browser to name.
    return "unknown";
  }
}

async function recordOnEachAccount(
  tx: Tx,
  userId: string,
  event: { action: string; description: string; metadata: Record<string, string> },
) {
  const memberships = await tx.membership.findMany({ where: { userId }, select: { accountId: true } });
  for (const { accountId } of memberships) {
    await recordActivity(tx, { accountId, actor: userId, category: "auth", ...event });
  }
}

/** Auth.js `events.signIn`: the consent a sign-in gives (see accept-legal-terms) and the sign-in itself, in one transaction. */
export async function recordSignIn(userId: string, { isNewUser }: { isNewUser: boolean }): Promise<void> {
  const browser = await requestBrowser();
  await inTransaction(async (tx) => {
    await acceptLegalTermsAtSignIn(tx, userId);
    await recordOnEachAccount(tx, userId, {
      action: "auth.signed_in",
      description: isNewUser ? "Signed in for the first time with an e-mail link" : "Signed in with an e-mail link",
      metadata: { method: "email_link", browser },
    });
  });
}

/** Auth.js `events.signOut`. */
export async function recordSignOut(userId: string): Promise<void> {
  const browser = await requestBrowser();
  await inTransaction((tx) =>
    recordOnEachAccount(tx, userId, { action: "auth.signed_out", description: "Signed out", metadata: { browser } }),
  );
}

/** A sign-in refused for this address: recorded when it is an existing user's, within the cap. */
export async function recordSignInRefusal(email: string, reason: SignInRefusal, now = Date.now()): Promise<void> {
  const user = await db.user.findUnique({ where: { email: email.trim().toLowerCase() }, select: { id: true } });
  if (!user) return;
  const windowStart = new Date(Math.floor(now / 1000 / REFUSAL_WINDOW_SECONDS) * REFUSAL_WINDOW_SECONDS * 1000);
  const bucket = `sign-in-refusal:${user.id}`;
  if ((await counterStore().increment(bucket, windowStart, REFUSAL_WINDOW_SECONDS)) > REFUSALS_PER_WINDOW) return;
  const browser = await requestBrowser();
  await inTransaction((tx) =>
    recordOnEachAccount(tx, user.id, {
      action: "auth.sign_in_refused",
      description: refusalDescriptions[reason],
      metadata: { reason, browser },
    }),
  );
}
