import { usageQuerySchema } from "../../contract/account";
import type { ResponseComponentName } from "../../contract/index";
import { defineOperation, type LegacyPath } from "../define-operation";
import { legacyPathsOf } from "../legacy-paths.mjs";

// The account reads without parameters: `account:read`, the general bucket, no route-specific errors.
function accountRead<Response extends ResponseComponentName>(
  operationId: string,
  path: string,
  component: Response,
  summary: string,
  description: string,
  legacyPaths: LegacyPath[] = [],
) {
  return defineOperation({
    operationId,
    method: "GET",
    path,
    legacyPaths,
    tag: "Account",
    summary,
    description,
    scope: "account:read",
    response: { component },
    errors: [],
  });
}

export const getStatus = accountRead(
  "getStatus",
  "/v1/status",
  "KeyStatus",
  "Key and account identity",
  "Identifies the API key making the request and its account.",
);

export const getUsage = defineOperation({
  operationId: "getUsage",
  method: "GET",
  path: "/v1/usage",
  tag: "Account",
  summary: "Usage summary",
  description:
    "Requests, generations and provider submissions of the account over the last `days` days, in the region this address serves (the credit balance is the account's).",
  scope: "account:read",
  query: usageQuerySchema,
  response: { component: "UsageSummary" },
  errors: ["ERR1001"],
});

export const getAccount = accountRead(
  "getAccount",
  "/v1/user/account",
  "AccountProfile",
  "Account profile",
  "The profile of the key's account.",
  legacyPathsOf("/v1/user/account"),
);

export const getBilling = accountRead(
  "getBilling",
  "/v1/user/billing",
  "BillingSummary",
  "Plan, credit balance and subscription period",
  "The account's plan, credit balance and subscription state.",
);
