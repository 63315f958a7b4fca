import "server-only";
import type { OneAccount } from "../../base/account-scope";
import type { Db } from "../../base/db";
import { invalidRequest } from "../../base/error-table";
import { Prisma } from "../../base/generated/prisma/client";
import { isGuid } from "../../base/guid";
import { RECORD_COLUMNS } from "./find-public-record";
import type { RecordSource } from "./public-record";

// GET /v1/content/list?starting_after=<generation id>: the generations after that one in the
// list's order (created_at desc, id desc), as Stripe's lists page. One statement: the anchor by its
// key, then one range scan of generation (account_id, created_at desc, id desc) from its position,
// no sort and nothing skipped, so a deep page costs what the first does and generations created
// meanwhile never shift one (tests/integration/generations/list-after.test.ts checks the plan).

export type GenerationsAfter = { rows: RecordSource[]; hasMore: boolean };

const unknownAnchor = (startingAfter: string) =>
  invalidRequest(`starting_after is not a generation of this account: ${startingAfter}.`, [
    { field: "starting_after", message: "is not a generation of this account (or it was deleted by retention)" },
  ]);

/** The page's statement: `take` rows after the anchor, none when the anchor is not the account's. */
export function pageAfterStatement(scope: OneAccount, startingAfter: string, take: number) {
  return Prisma.sql`
    SELECT ${Prisma.raw(RECORD_COLUMNS)} FROM generation
    WHERE account_id = ${scope.accountId}::uuid
      AND (created_at, id) < (SELECT created_at, id FROM generation WHERE id = ${startingAfter}::uuid AND account_id = ${scope.accountId}::uuid)
    ORDER BY created_at DESC, id DESC
    LIMIT ${take}`;
}

/** An anchor that is malformed, another account's or gone is ERR1001 naming `starting_after`. */
export async function generationsAfter(
  db: Db,
  scope: OneAccount,
  page: { startingAfter: string; limit: number },
): Promise<GenerationsAfter> {
  const { startingAfter, limit } = page;
  if (!isGuid(startingAfter)) throw unknownAnchor(startingAfter);
  const rows = await db.$queryRaw<RecordSource[]>(pageAfterStatement(scope, startingAfter, limit + 1));
  // No rows: the end of the list, or an anchor that is not there (asked only then).
  if (rows.length === 0) {
    const anchor = await db.generation.findFirst({ where: { id: startingAfter, accountId: scope.accountId }, select: { id: true } });
    if (!anchor) throw unknownAnchor(startingAfter);
  }
  return { rows: rows.slice(0, limit), hasMore: rows.length > limit };
}
