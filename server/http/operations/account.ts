import "server-only";
import { usageQuerySchema } from "../../openapi/schemas/account";
import { defineOperation } from "../define-operation";

export const getStatus = defineOperation({
  operationId: "getStatus",
  method: "GET",
  path: "/v1/status",
  tag: "Account",
  summary: "Key and account identity",
  description: "Identifies the API key making the request and its account.",
  scope: "account:read",
  response: { component: "KeyStatus" },
  errors: [],
});

export const getUsage = defineOperation({
  operationId: "getUsage",
  method: "GET",
  path: "/v1/usage",
  tag: "Account",
  summary: "Usage summary",
  description: "Requests, generations and provider submissions of the account over the last `days` days.",
  scope: "account:read",
  query: usageQuerySchema,
  response: { component: "UsageSummary" },
  errors: ["ERR1001"],
});

export const getAccount = defineOperation({
  operationId: "getAccount",
  method: "GET",
  path: "/v1/user/account",
  legacyPaths: [{ operationId: "legacyGetAccount", path: "/v1/data/account" }],
  tag: "Account",
  summary: "Account profile",
  description: "The profile of the key's account.",
  scope: "account:read",
  response: { component: "AccountProfile" },
  errors: [],
});

export const getBilling = defineOperation({
  operationId: "getBilling",
  method: "GET",
  path: "/v1/user/billing",
  tag: "Account",
  summary: "Plan, credit balance and subscription period",
  description: "The account's plan, credit balance and subscription state.",
  scope: "account:read",
  response: { component: "BillingSummary" },
  errors: [],
});
