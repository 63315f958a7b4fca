import "server-only";
import { z } from "zod";
import { MAX_ACCOUNT_NAME_LENGTH } from "../../../accounts/create-account";
import { deleteTeamAccount } from "../../../accounts/delete-team-account";
import { MAX_PICTURE_URL_LENGTH, updateAccountProfile } from "../../../accounts/update-account-profile";
import { accountScope } from "../../../base/account-scope";
import { log } from "../../../base/log";
import { endDashboardStreams } from "../../../live/end-dashboard-streams";
import { expireUploads } from "../../../playground/uploads/expire-uploads";
import { getSettings } from "../../../settings/get-settings";
import { inTransaction } from "../../../base/transaction";
import { setMarketingConsent } from "../../../users/set-marketing-consent";
import { signOutEverywhere } from "../../../users/sign-out-everywhere";
import { updateUserName, MAX_USER_NAME_LENGTH } from "../../../users/update-user-name";
import { authedProcedure, createTRPCRouter, memberProcedure, ownerProcedure, primaryOwnerProcedure } from "../trpc";

// The Settings page. Every member reads; owners edit the account's name and picture; the
// primary owner deletes a team account; each user edits their own name, marketing consent and
// sessions (those are about the user, so any signed-in user, whatever the account). The rules
// live in server/accounts and server/users; here only input bounds and who is asking.

// Bounds generous enough that the domain functions give the precise message (trimmed lengths).
const text = (max: number) => z.string().max(max * 2 + 100);

export const settingsRouter = createTRPCRouter({
  get: memberProcedure.query(({ ctx }) => getSettings(ctx.membership, ctx.userId)),

  updateAccount: ownerProcedure
    .input(z.object({ name: text(MAX_ACCOUNT_NAME_LENGTH).optional(), pictureUrl: text(MAX_PICTURE_URL_LENGTH).optional() }))
    .mutation(({ ctx, input }) =>
      inTransaction((tx) =>
        updateAccountProfile(tx, {
          accountId: ctx.membership.accountId,
          actor: ctx.userId,
          name: input.name,
          pictureUrl: input.pictureUrl,
        }),
      ),
    ),

  updateProfile: authedProcedure
    .input(z.object({ name: text(MAX_USER_NAME_LENGTH) }))
    .mutation(({ ctx, input }) => inTransaction((tx) => updateUserName(tx, { userId: ctx.userId, name: input.name }))),

  setMarketingEmails: authedProcedure
    .input(z.object({ optIn: z.boolean() }))
    .mutation(({ ctx, input }) => inTransaction((tx) => setMarketingConsent(tx, { userId: ctx.userId, optIn: input.optIn }))),

  // Each ends the live feeds it takes away at once (other instances' on their next check).
  signOutEverywhere: authedProcedure.mutation(async ({ ctx }) => {
    const signedOut = await inTransaction((tx) => signOutEverywhere(tx, { userId: ctx.userId }));
    endDashboardStreams({ userId: ctx.userId });
    return signedOut;
  }),

  deleteAccount: primaryOwnerProcedure.input(z.object({ confirmName: text(MAX_ACCOUNT_NAME_LENGTH) })).mutation(async ({ ctx, input }) => {
    const deleted = await inTransaction((tx) =>
      deleteTeamAccount(tx, { accountId: ctx.membership.accountId, actor: ctx.userId, confirmName: input.confirmName }),
    );
    endDashboardStreams({ accountId: deleted.accountId, everyMember: true });
    // Its uploads expired with it: their files go now (the 10-minute expiry catches a failure).
    await expireUploads(accountScope(deleted.accountId)).catch((error: unknown) =>
      log.warn("deleted account's uploads left for the expiry", { error: error instanceof Error ? error.message : String(error) }),
    );
    return deleted;
  }),
});
