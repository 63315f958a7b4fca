import "server-only";
import type { Tx } from "../base/db";
import { invalidRequest } from "../base/error-table";
import { createAccount, type CreatedAccount } from "./create-account";

// A team account from the dashboard: not personal, on the Free plan, the user its primary owner.
// createAccount does the rest (default alert threshold; the welcome credit stays once per user).

export async function createTeamAccount(tx: Tx, input: { userId: string; name: string }): Promise<CreatedAccount> {
  const user = await tx.user.findUniqueOrThrow({ where: { id: input.userId }, select: { email: true } });
  if (input.name.trim() === "") throw invalidRequest("Give the team account a name.", [{ field: "name", message: "required" }]);
  return createAccount(tx, { email: user.email, name: input.name, plan: "free", isPersonal: false, actor: input.userId });
}
