import "server-only";
import type { OneAccount } from "../base/account-scope";
import type { Db } from "../base/db";
import { ApiError } from "../base/error-table";

/** GET /v1/user/account. */
export async function getAccountProfile(db: Db, scope: OneAccount) {
  const account = await db.account.findUnique({ where: { id: scope.accountId } });
  if (!account) throw new ApiError("ERR1006", "The account was not found.");
  return {
    account_id: account.id,
    account_name: account.name,
    account_email: account.email,
    account_is_personal: account.isPersonal,
    account_picture_url: account.pictureUrl,
    account_created_at: account.createdAt.toISOString(),
  };
}
