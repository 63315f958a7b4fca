import "server-only";

// Whose data a domain function may touch. Always passed, never optional ("the workspace is always
// passed"): the dashboard and /v1 pass one account; only the operator CLI and crons/Inngest
// functions pass OPERATOR, which reaches every account.

export type AccountScope = { accountId: string } | { operator: true };

export const OPERATOR: AccountScope = { operator: true };

/** The scope of exactly one account (the dashboard's and /v1's): for work that needs its id. */
export type OneAccount = Extract<AccountScope, { accountId: string }>;

export function accountScope(accountId: string): OneAccount {
  return { accountId };
}

/** The Prisma `where` fragment of a scope: `{ accountId }`, or `{}` for the operator. */
export function scopeWhere(scope: AccountScope): { accountId?: string } {
  // Checked on accountId, not operator: a scope carrying an account is always narrowed to it.
  return "accountId" in scope ? { accountId: scope.accountId } : {};
}
