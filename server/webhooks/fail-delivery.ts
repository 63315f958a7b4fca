import "server-only";
import type { Tx } from "../base/db";

/** After the run's last attempt failed: `failed`, re-sendable from the dashboard or the CLI. */
export async function failDelivery(tx: Tx, deliveryId: string): Promise<{ failed: boolean }> {
  const { count } = await tx.webhookDelivery.updateMany({ where: { id: deliveryId, status: "pending" }, data: { status: "failed" } });
  return { failed: count === 1 };
}
