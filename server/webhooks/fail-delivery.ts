import "server-only";
import { db } from "../db";

/** After the run's last attempt failed: `failed`, re-sendable from the dashboard or the CLI. */
export async function failDelivery(deliveryId: string): Promise<{ failed: boolean }> {
  const { count } = await db.webhookDelivery.updateMany({ where: { id: deliveryId, status: "pending" }, data: { status: "failed" } });
  return { failed: count === 1 };
}
