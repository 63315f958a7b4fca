import type { Tx } from "../../base/db";

/** The order row, locked for this transaction (an order changes state once). */
export async function lockOrder(tx: Tx, where: { id?: string; stripeCheckoutSessionId?: string; stripePaymentIntentId?: string }) {
  const order = await tx.order.findFirst({ where, orderBy: { createdAt: "asc" } });
  if (!order) return null;
  await tx.$queryRaw`SELECT id FROM "order" WHERE id = ${order.id}::uuid FOR UPDATE`;
  return tx.order.findUniqueOrThrow({ where: { id: order.id } });
}

export const orderLabel = (order: { id: string; credits: { toString(): string } }) =>
  `${Number(order.credits.toString())}-credit pack (order ${order.id.slice(0, 8)})`;
