import { randomBytes, randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Inngest } from "inngest";
import { serve } from "inngest/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OPERATOR } from "@/server/base/account-scope";
import { useClock } from "@/server/base/clock";
import { db, disconnectDb } from "@/server/base/db";
import { embeddedClientOptions } from "@/server/base/events/embedded-client";
import { registerExecutor, unregisterExecutor } from "@/server/base/events/executor-registry";
import { sampleGenerationRecord } from "@/server/generations/records/sample-record";
import { EmbeddedExecutor } from "@/server/jobs/executor/executor";
import { webhookDeliveryOn } from "@/server/jobs/functions/webhook-delivery";
import { inTransaction } from "@/server/base/transaction";
import { createWebhookEndpoint } from "@/server/webhooks/create-endpoint";
import { WEBHOOK_RETRY_OFFSETS_MS } from "@/server/webhooks/retry-schedule";
import { queueTestEvent } from "@/server/webhooks/send-test-event";
import { FakeClock } from "@/tests/support/fake-clock";
import { createTestAccount } from "@/tests/support/fixtures";
import { until } from "@/tests/support/until";

// The retry schedule (an immediate attempt, then +0.5, +1.5, +3 and +5 s from the first) on a fake
// clock: the app's own webhook-delivery function, served by this suite under an app id of its own
// and driven by an embedded executor in this process, whose wake-ups and the attempts' start times
// read the clock the suite moves. Each wake-up lands exactly on its offset, and nothing waits for
// the seconds to pass. The same schedule end to end on the real clock: tests/http/webhooks/.

const appId = `webhook-schedule-${randomUUID().slice(0, 8)}`;
const signingKey = `signkey-test-${randomBytes(32).toString("hex")}`;
const silent = { info() {}, warn() {}, error() {}, debug() {} };
let executor: EmbeddedExecutor;
const client = new Inngest(embeddedClientOptions({ id: appId, sink: () => executor, signingKey: () => signingKey, logger: silent }));

const fake = new FakeClock();
let restoreClock: () => void = () => undefined;
let app: http.Server;
let receiver: http.Server;
let receiverUrl = "";
/** path → answer for its n-th request (1-based); every arrival with its time on the fake clock. */
const scripts = new Map<string, (n: number) => number>();
const arrivals: Array<{ path: string; at: number }> = [];

async function listen(handler: http.RequestListener): Promise<{ server: http.Server; url: string }> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** A test event to an endpoint answering `status(n)` to its n-th request; the delivery's id. */
async function deliveryTo(status: (n: number) => number): Promise<{ deliveryId: string; path: string }> {
  const { accountId } = await createTestAccount();
  const path = `/hook/${randomUUID()}`;
  scripts.set(path, status);
  const endpoint = await inTransaction((tx) => createWebhookEndpoint(tx, { accountId, url: `${receiverUrl}${path}`, actor: "system" }));
  const { delivery_id } = await inTransaction((tx) =>
    queueTestEvent(tx, OPERATOR, { webhookId: endpoint.webhook_id, actor: "system", sample: sampleGenerationRecord(accountId) }),
  );
  return { deliveryId: delivery_id, path };
}

/** The delivery once no longer pending, the fake clock moved to each wake-up the executor arms meanwhile. */
const settled = (deliveryId: string) =>
  until(async () => {
    fake.fireNext();
    const row = await db.webhookDelivery.findUniqueOrThrow({
      where: { id: deliveryId },
      include: { attempts: { orderBy: { attemptNumber: "asc" } } },
    });
    return row.status !== "pending" ? row : null;
  }, `delivery ${deliveryId} delivered or failed`);

const offsetsOf = (times: number[]) => times.slice(1).map((time) => time - (times[0] as number));

beforeAll(async () => {
  restoreClock = useClock(fake);
  ({ server: receiver, url: receiverUrl } = await listen((req, res) => {
    const path = req.url ?? "/";
    arrivals.push({ path, at: fake.now() });
    req.resume();
    const status = scripts.get(path)?.(arrivals.filter((arrival) => arrival.path === path).length) ?? 200;
    res.writeHead(status, { "content-type": "text/plain" }).end(status < 300 ? "ok" : "not yet");
  }));
  let appUrl: string;
  ({ server: app, url: appUrl } = await listen(serve({ client, functions: [webhookDeliveryOn(client)] })));
  // No periodic re-scan: every attempt after the first starts from a wake-up on the fake clock.
  executor = new EmbeddedExecutor({ appUrl, db, signingKey, scanIntervalMs: 600_000 });
  registerExecutor(executor);
  await executor.start();
});

afterAll(async () => {
  unregisterExecutor(executor);
  await executor.stop();
  restoreClock();
  for (const server of [app, receiver]) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  await db.inngestRun.deleteMany({ where: { appId } });
  await db.inngestEvent.deleteMany({ where: { appId } });
  await disconnectDb();
});

describe("the webhook retry schedule on a fake clock", () => {
  it("retries at exactly +0.5, +1.5 and +3 s from the first attempt, then delivers", async () => {
    const { deliveryId, path } = await deliveryTo((n) => (n <= 3 ? 503 : 200));
    const row = await settled(deliveryId);
    expect(row.status).toBe("delivered");
    expect(row.attempts.map((attempt) => [attempt.attemptNumber, attempt.statusCode])).toEqual([
      [1, 503],
      [2, 503],
      [3, 503],
      [4, 200],
    ]);
    expect(offsetsOf(row.attempts.map((attempt) => attempt.createdAt.getTime()))).toEqual([500, 1500, 3000]);
    expect(offsetsOf(arrivals.filter((arrival) => arrival.path === path).map((arrival) => arrival.at))).toEqual([500, 1500, 3000]);
  });

  it("gives up after exactly five attempts (+0, +0.5, +1.5, +3, +5 s) and arms nothing more", async () => {
    const { deliveryId, path } = await deliveryTo(() => 500);
    const row = await settled(deliveryId);
    expect(row.status).toBe("failed");
    expect(row.attemptCount).toBe(5);
    expect(offsetsOf(row.attempts.map((attempt) => attempt.createdAt.getTime()))).toEqual([...WEBHOOK_RETRY_OFFSETS_MS]);
    const run = await until(
      () => db.inngestRun.findFirst({ where: { appId, eventId: `webhook-delivery:${deliveryId}`, status: "completed" } }),
      "the run completed as failed",
    );
    expect(run.output).toMatchObject({ outcome: "failed" });
    expect(fake.nextTimerAt()).toBeNull();
    expect(arrivals.filter((arrival) => arrival.path === path)).toHaveLength(5);
  });
});
