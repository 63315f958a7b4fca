import "server-only";
import { z } from "zod";
import { findMembership } from "../../../accounts/find-membership";
import { activityExportFormats, exportActivity } from "../../../activity/export/export-activity";
import { fromOtherSite } from "../../../auth/same-origin";
import { readSignedInSession } from "../../../auth/signed-in-session";
import { accountScope, type OneAccount } from "../../../base/account-scope";
import { db } from "../../../base/db";
import { env } from "../../../base/env";
import { ApiError, toApiError } from "../../../base/error-table";
import { log } from "../../../base/log";
import { exportUsage } from "../../../usage/export/export-usage";
import { parseQuery, textQueryParam } from "../../contract/query";
import { usageExportQuerySchema } from "../../contract/usage-export";
import { errorResponse, newRequestId } from "../envelope";
import { fileResponse } from "./downloads";

// GET /api/usage/export and /api/activity/export?account=<id>&from=&to=&format=: the usage and
// activity pages' downloads, the same exports as the CLI and GET /v1/usage/export, for a signed-in
// member of the account (owners and members alike). Not another site's request (403), a live
// session (401), a member of the account (404, as tRPC answers); refusals in the /v1 envelope.

const activityExportQuerySchema = z.object({
  from: textQueryParam(z.string()).describe("First UTC day, YYYY-MM-DD; by default the first the plan keeps."),
  to: textQueryParam(z.string()),
  format: textQueryParam(z.enum(activityExportFormats, { error: "must be one of csv, jsonl" })).default("csv"),
});

type File = { filename: string; contentType: string; lines: AsyncIterable<string> };

function dashboardDownload(name: string, produce: (scope: OneAccount, query: URLSearchParams) => Promise<File>) {
  return async function download(request: Request): Promise<Response> {
    const requestId = newRequestId();
    try {
      if (fromOtherSite(request))
        throw new ApiError("ERR1003", "Cross-site requests are refused: downloads start from the dashboard's own pages.");
      const session = await readSignedInSession(request);
      if (!session) throw new ApiError("ERR1002", "Sign in to continue.");
      const query = new URL(request.url).searchParams;
      const accountId = query.get("account") ?? "";
      const membership = await findMembership(db, { accountId, userId: session.userId });
      if (!membership) throw new ApiError("ERR1006", "Account not found.", { account_id: accountId });
      return fileResponse(await produce(accountScope(accountId), query));
    } catch (error) {
      const apiError = toApiError(error);
      if (apiError.code === "ERR5000") log.error(`${name} failed`, { error: error instanceof Error ? error.message : String(error) });
      return errorResponse(apiError, requestId);
    }
  };
}

export const downloadUsageExport = dashboardDownload("usage export", (scope, query) => {
  const { from, to, format } = parseQuery(usageExportQuerySchema, query);
  // The usage page's region: this deployment's.
  return exportUsage(db, scope, { from, to, format, region: env().REGION });
});

export const downloadActivityExport = dashboardDownload("activity export", (scope, query) => {
  const { from, to, format } = parseQuery(activityExportQuerySchema, query);
  return exportActivity(db, scope, { from, to, format });
});
