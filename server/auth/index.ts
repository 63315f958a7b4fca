import "server-only";
import NextAuth, { type NextAuthConfig } from "next-auth";
import { env } from "../env";
import { darkroomAuthAdapter } from "./adapter";
import { log } from "../runtime/log";
import { consumeSignInLinkAllowance, darkroomEmailProvider } from "./send-sign-in-link";

// Dashboard sign-in: e-mail magic links, JWT sessions signed with AUTH_SECRET.
// The route handler pins requests to APP_URL (app/api/auth/[...nextauth]/route.ts), so links are
// built from our configured address and never from a client's Host header; hence trustHost.

export const SESSION_MAX_AGE_SECONDS = 30 * 24 * 3600;

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
        if (!email?.verificationRequest || !user.email) return true;
        const allowed = await consumeSignInLinkAllowance(user.email);
        if (!allowed) log.warn("sign-in link refused: too many requests for this address");
        return allowed;
      },
      session({ session, token }) {
        if (token.sub) session.user.id = token.sub;
        return session;
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
