import { randomUUID } from "node:crypto";
import { db } from "@/server/base/db";
import type { GenerationStatus } from "@/server/base/generated/prisma/enums";
import type { PlanName } from "@/server/plans/plan-limits";
import { getStorage } from "@/server/storage/get-storage";
import { outputKey } from "@/server/storage/output-expiry";
import { seedRequestLogs } from "./request-logs";

// Rows of every kind retention deletes, written at a chosen moment. The accounts are made directly
// (no welcome credit, no activity) so that a pass's counts are exactly the rows a case wrote, and
// their balance is a column value that no ledger row adds up to.

const SECOND = 1000;
const DAY = 24 * 3600 * SECOND;

/** The spec's "Retention by plan" table (§8), as written there. */
export const specWindows: Record<
  PlanName,
  { generations: number; requestLogs: number; webhookLogs: number; activity: number; ledger: number }
> = {
  free: { generations: DAY, requestLogs: DAY, webhookLogs: DAY, activity: DAY, ledger: 30 * DAY },
  starter: { generations: 7 * DAY, requestLogs: 7 * DAY, webhookLogs: 7 * DAY, activity: 7 * DAY, ledger: 90 * DAY },
  pro: { generations: 30 * DAY, requestLogs: 30 * DAY, webhookLogs: 30 * DAY, activity: 30 * DAY, ledger: 180 * DAY },
  scale: { generations: 180 * DAY, requestLogs: 180 * DAY, webhookLogs: 180 * DAY, activity: 180 * DAY, ledger: 365 * DAY },
  enterprise: { generations: 365 * DAY, requestLogs: 365 * DAY, webhookLogs: 365 * DAY, activity: 365 * DAY, ledger: 365 * DAY },
};

/**
 * The moment the cases run retention "as of": 400 days ahead of the wall clock, so every row they
 * write is younger than its window by the wall clock and the app's own hourly pass never touches it.
 */
export function futureNow(): Date {
  return new Date(Date.now() + 400 * DAY);
}

export const secondsBefore = (moment: Date, ms: number, seconds = 0) => new Date(moment.getTime() - ms + seconds * SECOND);

export async function seedAccount(plan: PlanName, balance = "42.125") {
  const account = await db.account.create({
    data: { name: `retention ${plan}`, email: `retention-${randomUUID()}@test.local`, plan, creditBalance: balance },
  });
  return account.id;
}

export async function balanceText(accountId: string) {
  return (await db.account.findUniqueOrThrow({ where: { id: accountId } })).creditBalance.toFixed(3);
}

export async function seedGeneration(accountId: string, createdAt: Date, status: GenerationStatus = "succeeded", files = 2) {
  const generation = await db.generation.create({
    data: {
      accountId,
      region: "us",
      mediaKind: "image",
      modelIdentifier: "darkroom/lumen-image",
      status,
      estimatedCost: "0.002",
      providerOrder: ["local"],
      createdAt,
    },
  });
  const keys: string[] = [];
  for (let index = 0; index < files; index += 1) {
    const key = outputKey(accountId, generation.id, index, "png");
    await getStorage().put(key, new Uint8Array([137, 80, 78, 71, index]), "image/png");
    keys.push(key);
  }
  await db.generation.update({ where: { id: generation.id }, data: { outputKeys: keys } });
  return { id: generation.id, keys };
}

export async function seedRequestLog(accountId: string, createdAt: Date) {
  const [id] = await seedRequestLogs([{ accountId, endpoint: "/v1/content/list", createdAt }]);
  return id!;
}

export async function seedEndpoint(accountId: string) {
  const row = await db.webhookEndpoint.create({
    data: { accountId, url: "https://hooks.example.com/r", events: ["generation.completed"], secret: "not-used-here" },
  });
  return row.id;
}

/** A delivery that ended at `createdAt`, with its one attempt. */
export async function seedDelivery(
  accountId: string,
  endpointId: string,
  createdAt: Date,
  status: "delivered" | "failed" | "pending" = "delivered",
) {
  const delivery = await db.webhookDelivery.create({
    data: {
      accountId,
      endpointId,
      event: "generation.completed",
      eventKey: `generation.completed:${randomUUID()}`,
      payload: {},
      status,
      attemptCount: 1,
      lastAttemptAt: createdAt,
      createdAt,
    },
  });
  await db.webhookAttempt.create({ data: { deliveryId: delivery.id, attemptNumber: 1, statusCode: 200, latencyMs: 5, createdAt } });
  return delivery.id;
}

export async function seedActivity(accountId: string, createdAt: Date) {
  const row = await db.activityEvent.create({
    data: { accountId, actor: "system", category: "credit", action: "credit.added", description: "seeded", createdAt },
  });
  return row.id;
}

export async function seedLedgerAdd(accountId: string, createdAt: Date) {
  const row = await db.ledgerEntry.create({
    data: {
      accountId,
      type: "add",
      amount: "1.000",
      balanceAfter: "1.000",
      description: "seeded",
      sourceKey: `test:${randomUUID()}`,
      createdAt,
    },
  });
  return row.id;
}

export async function seedLedgerMovement(accountId: string, generationId: string, type: "reserve" | "charge" | "refund", createdAt: Date) {
  const row = await db.ledgerEntry.create({
    data: { accountId, type, amount: "0.002", balanceAfter: "1.000", generationId, description: `seeded ${type}`, createdAt },
  });
  return row.id;
}

export async function exists(
  kind: "generation" | "requestLog" | "webhookDelivery" | "activityEvent" | "ledgerEntry",
  id: string,
): Promise<boolean> {
  const where = { where: { id } };
  switch (kind) {
    case "generation":
      return (await db.generation.count(where)) === 1;
    case "requestLog":
      return (await db.requestLog.count(where)) === 1;
    case "webhookDelivery":
      return (await db.webhookDelivery.count(where)) === 1;
    case "activityEvent":
      return (await db.activityEvent.count(where)) === 1;
    case "ledgerEntry":
      return (await db.ledgerEntry.count(where)) === 1;
  }
}

export async function fileExists(key: string) {
  return (await getStorage().head(key)) !== null;
}
