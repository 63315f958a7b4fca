import "server-only";
import type { Adapter, AdapterUser, VerificationToken } from "next-auth/adapters";
import { createAccount } from "../accounts/create-account";
import { recordSignInRefusal } from "./auth-activity";
import { signInAddress } from "./sign-in-address";
import { db } from "../base/db";
import type { User } from "../base/generated/prisma/client";
import { inTransaction } from "../base/transaction";

// The Auth.js adapter for e-mail sign-in with JWT sessions: verification tokens and users only.
// @auth/prisma-adapter does not fit: its `Account` model (OAuth links) would collide with ours
// (the billing account). A first sign-in creates the user together with a personal account
// (primary owner, default alert, welcome credit once), like the CLI's account:create.

function toAdapterUser(user: User): AdapterUser {
  return { id: user.id, email: user.email, name: user.name, image: user.image, emailVerified: user.emailVerified };
}

/** Stores a sign-in link's token: Auth.js's e-mail provider, and links minted for invitations (mint-sign-in-link). */
export async function storeVerificationToken(token: VerificationToken): Promise<VerificationToken> {
  // Auth.js hands over SHA-256(token + secret): the raw link token is never stored.
  await db.verificationToken.create({ data: { identifier: token.identifier, token: token.token, expires: token.expires } });
  // Used and expired links are kept a day (to tell "already used" from "unknown"), then go.
  await db.$executeRaw`DELETE FROM verification_token WHERE expires < now() - interval '1 day'`;
  return token;
}

export function darkroomAuthAdapter(): Adapter {
  return {
    // A request for anything but one mailbox sends nothing (send-sign-in-link), so it keeps no token either.
    createVerificationToken: (token) => (signInAddress(token.identifier) === token.identifier ? storeVerificationToken(token) : token),

    async useVerificationToken({ identifier, token }) {
      // Marking it used in one statement makes a link single-use even when it is opened twice at once.
      const [row] = await db.$queryRaw<Array<{ identifier: string; token: string; expires: Date }>>`
        UPDATE verification_token SET used_at = now() WHERE identifier = ${identifier} AND token = ${token} AND used_at IS NULL RETURNING identifier, token, expires`;
      if (row && row.expires.getTime() >= Date.now()) return row;
      // Auth.js refuses an expired row (and a missing one) with its Verification error; a link we
      // sent (the row exists) is an auth.sign_in_refused event of that user. Unknown tokens are not.
      const refused =
        row ??
        (identifier &&
          (await db.verificationToken.findUnique({ where: { identifier_token: { identifier, token } }, select: { expires: true } })));
      if (refused) await recordSignInRefusal(identifier, refused.expires.getTime() < Date.now() ? "link_expired" : "link_used");
      return row ?? null;
    },

    async getUserByEmail(email) {
      const user = await db.user.findUnique({ where: { email: email.trim().toLowerCase() } });
      return user ? toAdapterUser(user) : null;
    },

    async getUser(id) {
      const user = await db.user.findUnique({ where: { id } });
      return user ? toAdapterUser(user) : null;
    },

    async createUser(profile) {
      const email = profile.email.trim().toLowerCase();
      await inTransaction((tx) => createAccount(tx, { email, actor: "system" }));
      const user = await db.user.update({ where: { email }, data: { emailVerified: profile.emailVerified ?? new Date() } });
      return toAdapterUser(user);
    },

    async updateUser(patch) {
      const user = await db.user.update({
        where: { id: patch.id },
        data: {
          ...(patch.emailVerified !== undefined ? { emailVerified: patch.emailVerified } : {}),
          ...(patch.name !== undefined ? { name: patch.name } : {}),
        },
      });
      return toAdapterUser(user);
    },

    // E-mail is the only provider: no OAuth accounts to look up or link.
    async getUserByAccount() {
      return null;
    },
    async linkAccount() {
      return undefined;
    },
  };
}
