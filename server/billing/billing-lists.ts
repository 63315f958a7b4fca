import "server-only";
import { z } from "zod";
import type { OneAccount } from "../base/account-scope";
import type { PrismaClient } from "../base/generated/prisma/client";
import { LedgerEntryType } from "../base/generated/prisma/enums";

// The billing page's lists: orders (credit packs and auto top-ups) and the credit ledger, newest first, 25 a page
// (at most 100), with the total for the pager. Always one account's rows.

const page = { limit: z.int().min(1).max(100).default(25), offset: z.int().min(0).max(1_000_000).default(0) };

export const ledgerFilters = z.object({ type: z.enum(LedgerEntryType).optional(), ...page });
export const orderFilters = z.object(page);

/** `db` is the client, not a transaction: the count and the page are read in one batch transaction. */
export async function listLedger(db: PrismaClient, scope: OneAccount, filters: z.input<typeof ledgerFilters> = {}) {
  const { accountId } = scope;
  const { type, limit, offset } = ledgerFilters.parse(filters);
  const where = { accountId, type };
  const [total, rows] = await db.$transaction([
    db.ledgerEntry.count({ where }),
    db.ledgerEntry.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: limit, skip: offset }),
  ]);
  return pageOf(total, rows, { limit, offset }, (row) => ({
    id: row.id,
    type: row.type,
    amount: row.amount.toFixed(3),
    balanceAfter: row.balanceAfter.toFixed(3),
    description: row.description,
    generationId: row.generationId,
    modelIdentifier: row.modelIdentifier,
    createdAt: row.createdAt,
  }));
}

export async function listAccountOrders(db: PrismaClient, scope: OneAccount, filters: z.input<typeof orderFilters> = {}) {
  const { accountId } = scope;
  const { limit, offset } = orderFilters.parse(filters);
  const where = { accountId };
  const [total, rows] = await db.$transaction([
    db.order.count({ where }),
    db.order.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: limit, skip: offset }),
  ]);
  return pageOf(total, rows, { limit, offset }, (row) => ({
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
  }));
}

/** A page for the pager: its rows shaped, with the total and where the page starts. */
function pageOf<Row, Item>(total: number, rows: Row[], { limit, offset }: { limit: number; offset: number }, shape: (row: Row) => Item) {
  return { total, limit, offset, items: rows.map(shape) };
}
