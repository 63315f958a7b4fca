import "server-only";
import { initTRPC } from "@trpc/server";
import superjson from "superjson";
import { z } from "zod";
import { accountScope } from "../../base/account-scope";
import { findMembership } from "../../accounts/find-membership";
import { db } from "../../base/db";
import { ApiError } from "../../base/error-table";
import { toDashboardApiError, toTRPCError } from "./trpc-errors";

// The dashboard's procedures: small middlewares composed into
// member / owner / primary-owner procedures. Roles are enforced here, on the server, whatever the
// page shows. An account the user does not belong to is ERR1006, never a hint that it exists.

export type TRPCContext = {
  userId: string | null;
  /** The request's User-Agent header, when there is a request (not for server-side callers). */
  userAgent?: string | null;
};

const t = initTRPC.context<TRPCContext>().create({
  transformer: superjson,
  errorFormatter({ shape, error }) {
    const apiError = toDashboardApiError(error);
    return {
      ...shape,
      message: apiError.message,
      data: { code: shape.data.code, httpStatus: shape.data.httpStatus, path: shape.data.path, apiError: apiError.toBody() },
    };
  },
});

export const createTRPCRouter = t.router;
export const createCallerFactory = t.createCallerFactory;

/** Every failure below this point leaves as an error of the one table, with a matching status. */
const speaksTheErrorTable = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok) throw toTRPCError(result.error);
  return result;
});

export const publicProcedure = t.procedure.use(speaksTheErrorTable);

export const authedProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.userId) throw new ApiError("ERR1002", "Sign in to continue.");
  return next({ ctx: { userId: ctx.userId } });
});

export const memberProcedure = authedProcedure.input(z.object({ accountId: z.string() })).use(async ({ ctx, input, next }) => {
  const membership = await findMembership(db, { accountId: input.accountId, userId: ctx.userId });
  if (!membership) throw new ApiError("ERR1006", "Account not found.", { account_id: input.accountId });
  // The dashboard only ever acts within the account it was asked about, never as the operator.
  return next({ ctx: { membership, scope: accountScope(membership.accountId) } });
});

export const ownerProcedure = memberProcedure.use(({ ctx, next }) => {
  if (ctx.membership.role === "member") throw new ApiError("ERR1003", "Only owners of this account can do this; members have read access.");
  return next();
});

export const primaryOwnerProcedure = memberProcedure.use(({ ctx, next }) => {
  if (ctx.membership.role !== "primary_owner") throw new ApiError("ERR1003", "Only the primary owner of this account can do this.");
  return next();
});
