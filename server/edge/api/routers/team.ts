import "server-only";
import { z } from "zod";
import { createTeamAccount } from "../../../accounts/create-team-account";
import { MAX_ACCOUNT_NAME_LENGTH } from "../../../accounts/create-account";
import { db } from "../../../base/db";
import { endDashboardStreams } from "../../../live/end-dashboard-streams";
import { acceptInvitation, declineInvitation } from "../../../team/answer-invitation";
import { changeMemberRole } from "../../../team/change-member-role";
import { findInvitationByToken } from "../../../team/find-invitation";
import { inviteMember } from "../../../team/invite-member";
import { listTeam } from "../../../team/list-team";
import { leaveAccount, removeMember } from "../../../team/remove-member";
import { resendInvitation } from "../../../team/resend-invitation";
import { revokeInvitation } from "../../../team/revoke-invitation";
import { transferPrimaryOwnership } from "../../../team/transfer-primary-ownership";
import { inTransaction } from "../../../base/transaction";
import { authedProcedure, createTRPCRouter, memberProcedure, ownerProcedure, primaryOwnerProcedure, publicProcedure } from "../trpc";

// The team page and invitation links. Every member sees the team and may leave; owners invite,
// resend, revoke, change roles and remove; the primary owner transfers primary ownership. The
// rules live in server/team; here only input bounds and who is asking.

const id = z.string().max(100);
const token = z.string().max(200);
const role = z.enum(["owner", "member"]);

export const teamRouter = createTRPCRouter({
  /** The team, and who is asking (the page marks "you" and offers "Leave"). */
  list: memberProcedure.query(async ({ ctx }) => ({ ...(await listTeam(db, ctx.membership.accountId)), viewerId: ctx.userId })),

  invite: ownerProcedure
    .input(z.object({ email: z.string().max(320), role }))
    .mutation(({ ctx, input }) =>
      inTransaction((tx) =>
        inviteMember(tx, { accountId: ctx.membership.accountId, email: input.email, role: input.role, actor: ctx.userId }),
      ),
    ),

  resendInvitation: ownerProcedure
    .input(z.object({ invitationId: id }))
    .mutation(({ ctx, input }) =>
      inTransaction((tx) =>
        resendInvitation(tx, { accountId: ctx.membership.accountId, invitationId: input.invitationId, actor: ctx.userId }),
      ),
    ),

  revokeInvitation: ownerProcedure
    .input(z.object({ invitationId: id }))
    .mutation(({ ctx, input }) =>
      inTransaction((tx) =>
        revokeInvitation(tx, { accountId: ctx.membership.accountId, invitationId: input.invitationId, actor: ctx.userId }),
      ),
    ),

  changeRole: ownerProcedure
    .input(z.object({ userId: id, role }))
    .mutation(({ ctx, input }) =>
      inTransaction((tx) =>
        changeMemberRole(tx, { accountId: ctx.membership.accountId, userId: input.userId, role: input.role, actor: ctx.userId }),
      ),
    ),

  // The member's live feeds of the account end with the commit (other instances' on their next check).
  remove: ownerProcedure.input(z.object({ userId: id })).mutation(async ({ ctx, input }) => {
    const removed = await inTransaction((tx) =>
      removeMember(tx, { accountId: ctx.membership.accountId, userId: input.userId, actor: ctx.userId }),
    );
    endDashboardStreams({ userId: removed.userId, accountId: ctx.membership.accountId });
    return removed;
  }),

  transferPrimaryOwnership: primaryOwnerProcedure
    .input(z.object({ userId: id }))
    .mutation(({ ctx, input }) =>
      inTransaction((tx) =>
        transferPrimaryOwnership(tx, { accountId: ctx.membership.accountId, fromUserId: ctx.userId, toUserId: input.userId }),
      ),
    ),

  leave: memberProcedure.mutation(async ({ ctx }) => {
    const left = await inTransaction((tx) => leaveAccount(tx, { accountId: ctx.membership.accountId, userId: ctx.userId }));
    endDashboardStreams({ userId: left.userId, accountId: ctx.membership.accountId });
    return left;
  }),

  createAccount: authedProcedure
    .input(z.object({ name: z.string().max(MAX_ACCOUNT_NAME_LENGTH * 2) }))
    .mutation(({ ctx, input }) => inTransaction((tx) => createTeamAccount(tx, { userId: ctx.userId, name: input.name }))),

  /** The link's account, role and state; the token itself is the credential, so no sign-in needed. */
  invitation: publicProcedure.input(z.object({ token })).query(({ input }) => findInvitationByToken(db, input.token)),

  accept: authedProcedure
    .input(z.object({ token }))
    .mutation(({ ctx, input }) => inTransaction((tx) => acceptInvitation(tx, { token: input.token, userId: ctx.userId }))),

  decline: publicProcedure
    .input(z.object({ token }))
    .mutation(({ ctx, input }) => inTransaction((tx) => declineInvitation(tx, { token: input.token, actor: ctx.userId ?? "system" }))),
});
