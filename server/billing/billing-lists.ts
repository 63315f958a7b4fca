import "server-only";
import { z } from "zod";
import type { OneAccount } from "../base/account-scope";
import type { Db } from "../base/db";
import { LedgerEntryType } from "../base/generated/prisma/enums";
import { afterPosition, cursorPage, decodePositionCursor, type ListPosition } from "../base/pagination/position-cursor";

// The billing page's lists: orders (credit packs and auto top-ups) and the credit ledger, newest first, 25 a page
// (at most 100), paged with a cursor on (createdAt, id): no count and no offset, so a page of a long ledger costs
// what the first does. Always one account's rows.

const page = { limit: z.int().min(1).max(100).default(25), cursor: z.string().max(200).optional() };

export const ledgerFilters = z.object({ type: z.enum(LedgerEntryType).optional(), ...page });
export const orderFilters = z.object(page);

const newestFirst = [{ createdAt: "desc" as const }, { id: "desc" as const }];

type PageRead = { where: ReturnType<typeof afterPosition>; orderBy: typeof newestFirst; take: number };

/** One page newest first after the cursor: `read` gets the position's `where`, the order and `limit + 1`. */
async function pageAfterCursor<Row extends ListPosition, Item>(
  { limit, cursor }: { limit: number; cursor?: string },
  read: (page: PageRead) => Promise<Row[]>,
  shape: (row: Row) => Item,
) {
  const after = cursor === undefined ? null : decodePositionCursor(cursor);
  const { page, next_cursor } = cursorPage(await read({ where: afterPosition(after), orderBy: newestFirst, take: limit + 1 }), limit);
  return { limit, next_cursor, items: page.map(shape) };
}

export async function listLedger(db: Db, scope: OneAccount, filters: z.input<typeof ledgerFilters> = {}) {
  const { type, ...page } = ledgerFilters.parse(filters);
  return pageAfterCursor(
    page,
    ({ where, ...read }) => db.ledgerEntry.findMany({ where: { accountId: scope.accountId, type, ...where }, ...read }),
    (row) => ({
      id: row.id,
      type: row.type,
      amount: row.amount.toFixed(3),
      balanceAfter: row.balanceAfter.toFixed(3),
      description: row.description,
      generationId: row.generationId,
      modelIdentifier: row.modelIdentifier,
      createdAt: row.createdAt,
    }),
  );
}

export async function listAccountOrders(db: Db, scope: OneAccount, filters: z.input<typeof orderFilters> = {}) {
  return pageAfterCursor(
    orderFilters.parse(filters),
    ({ where, ...read }) => db.order.findMany({ where: { accountId: scope.accountId, ...where }, ...read }),
    (row) => ({
      id: row.id,
      credits: row.credits.toFixed(0),
      amountCents: row.amountCents,
      currency: row.currency,
      status: row.status,
      kind: row.kind,
      reviewReason: row.reviewReason,
      failureReason: row.failureReason,
      createdAt: row.createdAt,
      fulfilledAt: row.fulfilledAt,
      refundedAt: row.refundedAt,
    }),
  );
}
