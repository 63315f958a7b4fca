import "server-only";
import { db } from "../../../base/db";
import { listLoggedEndpoints } from "../../../request-logs/list-logged-endpoints";
import { listRequestLogs, requestLogFilters } from "../../../request-logs/list-request-logs";
import { createTRPCRouter, memberProcedure } from "../trpc";

// The request log of the account's API keys (spec §2, request log entry): every member reads it;
// nobody writes it from here (the /v1 checkpoint does). Another account's key id is ERR1006.

export const requestLogsRouter = createTRPCRouter({
  list: memberProcedure.input(requestLogFilters).query(({ ctx, input }) => listRequestLogs(db, ctx.scope, input)),

  endpoints: memberProcedure.query(({ ctx }) => listLoggedEndpoints(db, ctx.scope)),
});
