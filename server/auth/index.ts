import "server-only";
import NextAuth, { type NextAuthConfig } from "next-auth";
import { env } from "../base/env";
import { darkroomAuthAdapter } from "./adapter";
import { endAuthSession, SESSION_MAX_AGE_SECONDS } from "./auth-session";
import { recordSignIn, recordSignInRefusal, recordSignOut } from "./auth-activity";
import { endDashboardStreams } from "../live/end-dashboard-streams";
import { log } from "../base/log";
import { requestClientIp } from "./request-client-ip";
import { darkroomEmailProvider } from "./send-sign-in-link";
import { consumeSignInRequestAllowance, type SignInLinkRefusal } from "./sign-in-link-allowance";
import { checkSessionVersion } from "./session-version";

// Dashboard sign-in: e-mail magic links, JWT sessions signed with AUTH_SECRET, each recorded on
// the server (auth-session.ts) so that signing out ends it.
// The route handler pins requests to APP_URL (app/api/auth/[...nextauth]/route.ts), so links are
// built from our configured address and never from a client's Host header; hence trustHost.

export { SESSION_MAX_AGE_SECONDS };

const refusalScope: Record<SignInLinkRefusal, string> = { client: "from this client", mailbox: "for this address", total: "in total" };

function authConfig(): NextAuthConfig {
  return {
    adapter: darkroomAuthAdapter(),
    providers: [darkroomEmailProvider()],
    secret: env().AUTH_SECRET,
    trustHost: true,
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
    pages: { signIn: "/login", verifyRequest: "/login/check-email", error: "/login" },
    callbacks: {
      async signIn({ user, email }) {
        if (!email?.verificationRequest) return true;
        const address = user.email ?? "";
        const refused = await consumeSignInRequestAllowance({ email: address, clientIp: await requestClientIp() });
        if (refused) {
          log.warn(`sign-in link refused: too many requests ${refusalScope[refused]}`);
          if (refused === "mailbox") await recordSignInRefusal(address, "rate_limited");
        }
        return refused === null;
      },
      // Stamps the session version at sign-in and ends sessions older than "Sign out everywhere".
      jwt({ token, user }) {
        return checkSessionVersion(token, user);
      },
      session({ session, token }) {
        if (token.sub) session.user.id = token.sub;
        return session;
      },
    },
    events: {
      async signIn({ user, isNewUser }) {
        if (user.id) await recordSignIn(user.id, { isNewUser: isNewUser ?? false });
      },
      // Ends this session on the server too (and its live feeds): Auth.js only clears the browser's cookie.
      async signOut(message) {
        const token = "token" in message ? message.token : null;
        if (!token?.sub) return;
        await endAuthSession(token.sub, token.sid);
        if (typeof token.sid === "string") endDashboardStreams({ sessionId: token.sid });
        await recordSignOut(token.sub);
      },
    },
    logger: {
      // Auth.js error objects can carry the callback URL (with its token): log the kind only.
      error: (error) => console.error(`[auth] ${error.name}: ${error.message.split("\n")[0]?.replace(/token=[^&\s]+/g, "token=…")}`),
      warn: (code) => console.warn(`[auth] warning: ${code}`),
      debug: () => undefined,
    },
  };
}

export const { handlers, auth, signOut } = NextAuth(() => authConfig());

/** The signed-in user's id, or null. */
export async function currentUserId(): Promise<string | null> {
  const session = await auth();
  return session?.user?.id ?? null;
}
