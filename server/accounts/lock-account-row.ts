import "server-only";
import type { Tx } from "../base/db";
import { ApiError } from "../base/error-table";

// The account's row, locked for the rest of the transaction (settings changes of one account run
// one at a time, and a deletion waits for a generation being reserved). A deleted account is gone.

export type LockedAccount = { id: string; name: string; pictureUrl: string | null; isPersonal: boolean; deletedAt: Date | null };

export async function lockAccountRow(tx: Tx, accountId: string): Promise<LockedAccount> {
  const [row] = await tx.$queryRaw<LockedAccount[]>`
    SELECT id::text AS id, name, picture_url AS "pictureUrl", is_personal AS "isPersonal", deleted_at AS "deletedAt"
    FROM account WHERE id = ${accountId}::uuid FOR UPDATE`;
  if (!row || row.deletedAt) throw new ApiError("ERR1006", "Account not found.", { account_id: accountId });
  return row;
}
