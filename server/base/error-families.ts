import type { ErrorCode } from "./error-table";

// How clients group the error codes: each SDK has one error class per family, generated from the
// OpenAPI document's `x-error-families` and `x-error-codes`. `statuses` place an answer that has no
// envelope (a proxy's 502, a bare 401): an exact status first, then a range (`4XX`), then `default`.

export const errorFamilies = {
  validation: { description: "The request itself was refused: its body, query, headers, method, size or media type.", statuses: ["4XX"] },
  authentication: { description: "The key is missing, invalid, expired, revoked or from another region.", statuses: ["401"] },
  permission_denied: {
    description: "The key may not do this: it lacks the scope, or the client address is outside its IP allowlist.",
    statuses: ["403"],
  },
  not_found: { description: "The generation, model or route does not exist for this key.", statuses: ["404"] },
  insufficient_credits: { description: "The balance is too low for the estimated cost.", statuses: ["402"] },
  spend_limit: {
    description:
      "A key's or the account's spend limit for the period would be passed (`details`: scope, limit, used, requested, resets_at).",
    statuses: [],
  },
  rate_limit: {
    description: "Too many requests a minute, or too many generations in flight; Retry-After says when to retry.",
    statuses: ["429"],
  },
  conflict: { description: "The request conflicts with the state of the generation or of its Idempotency-Key.", statuses: ["409"] },
  provider: { description: "The inference providers failed.", statuses: [] },
  server: { description: "The service failed or is paused, or an answer came without the envelope.", statuses: ["default"] },
} as const satisfies Record<string, { description: string; statuses: readonly string[] }>;

export type ErrorFamily = keyof typeof errorFamilies;

export const errorFamilyOf: Record<ErrorCode, ErrorFamily> = {
  ERR1001: "validation",
  ERR1002: "authentication",
  ERR1003: "permission_denied",
  ERR1004: "insufficient_credits",
  ERR1005: "rate_limit",
  ERR1006: "not_found",
  ERR1007: "permission_denied",
  ERR1008: "validation",
  ERR1009: "rate_limit",
  ERR1010: "conflict",
  ERR1011: "validation",
  ERR1012: "not_found",
  ERR1013: "validation",
  ERR1014: "spend_limit",
  ERR1015: "validation",
  ERR2014: "validation",
  ERR2015: "conflict",
  ERR2016: "conflict",
  ERR3001: "server",
  ERR4001: "provider",
  ERR4002: "provider",
  ERR4003: "provider",
  ERR4004: "provider",
  ERR4005: "provider",
  ERR4006: "provider",
  ERR5000: "server",
};
