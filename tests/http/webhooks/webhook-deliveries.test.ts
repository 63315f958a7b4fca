import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OPERATOR } from "@/server/base/account-scope";
import { generationRecordSchema } from "@/server/edge/contract/generations";
import { db, disconnectDb } from "@/server/base/db";
import { inngest } from "@/server/base/events/client";
import { generationFinished } from "@/server/base/events/definitions";
import { createWebhookEndpoint } from "@/server/webhooks/create-endpoint";
import { queueWebhookEvent } from "@/server/webhooks/emit-webhook-event";
import { queueDeadLetterReplay } from "@/server/webhooks/replay-dead-letter";
import { queueResend, requestResend } from "@/server/webhooks/resend-delivery";
import { SAMPLE_GENERATION_ID_PREFIX, sampleGenerationRecord } from "@/server/generations/records/sample-record";
import { queueTestEvent } from "@/server/webhooks/send-test-event";
import { verifySignature } from "@/server/webhooks/sign";
import { updateWebhookEndpoint } from "@/server/webhooks/update-endpoint";
import { accountWithKey, createTestAccount } from "@/tests/support/fixtures";
import { expectSuccess } from "@/tests/support/http";
import { cancel, createImage, generationRunOver, waitForStatus } from "@/tests/support/generations";
import { inTransaction } from "@/server/base/transaction";
import { until } from "@/tests/support/until";

// Webhook delivery end to end: the test app's embedded executor runs webhook-fan-out and
// webhook-delivery; receivers are plain HTTP servers on 127.0.0.1 (allowed by
// WEBHOOK_ALLOW_LOOPBACK=1 in the test app). Events queued from this process land in the event
// table, which the app's executor picks up within its scan interval. HTTPS with a self-signed
// certificate is covered in tests/integration/webhooks/deliver.test.ts.

type Arrival = { path: string; at: number; headers: http.IncomingHttpHeaders; rawBody: string; body: any };

let server: http.Server;
let base = "";
const arrivals: Arrival[] = [];
/** path → answer for the n-th request on it (1-based). */
const scripts = new Map<string, (n: number) => { status: number; headers?: Record<string, string>; body?: string }>();

function script(answer: (n: number) => { status: number; headers?: Record<string, string>; body?: string }): string {
  const path = `/hook/${randomUUID()}`;
  scripts.set(path, answer);
  return path;
}

const arrivalsAt = (path: string) => arrivals.filter((arrival) => arrival.path === path);

const waitFor = <T>(
  probe: () => Promise<T | null | undefined | false> | T | null | undefined | false,
  timeoutMs?: number,
  what = "a webhook state",
) => until(probe, what, { timeoutMs, everyMs: 50 });

/** A run of the app's executor for `eventId` that can start no more work: completed or failed. */
const runOver = (eventId: string) =>
  waitFor(
    () => db.inngestRun.findFirst({ where: { eventId, status: { in: ["completed", "failed"] } } }),
    undefined,
    `the run of ${eventId} over`,
  );

async function endpointFor(accountId: string, path: string, events?: string[]) {
  return inTransaction((tx) => createWebhookEndpoint(tx, { accountId, url: `${base}${path}`, events, actor: "system" }));
}

const deliveryRow = (id: string) =>
  db.webhookDelivery.findUniqueOrThrow({ where: { id }, include: { attempts: { orderBy: { attemptNumber: "asc" } } } });
const settled = (id: string, timeoutMs?: number) =>
  waitFor(
    async () => {
      const row = await deliveryRow(id);
      return row.status !== "pending" ? row : null;
    },
    timeoutMs,
    `delivery ${id} to settle`,
  );

function expectSigned(arrival: Arrival, secret: string) {
  expect(verifySignature(arrival.headers["x-service-signature"] as string, secret, arrival.rawBody).valid).toBe(true);
  expect(arrival.headers["x-service-event"]).toBe(arrival.body.webhook_event);
  expect(arrival.headers["x-service-delivery-id"]).toBe(arrival.body.webhook_delivery_id);
  expect(arrival.headers["x-service-signature"]).toContain(`t=${arrival.headers["x-service-timestamp"]},v1=`);
}

const offsetsOf = (times: number[]) => times.slice(1).map((time) => time - (times[0] as number));

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const path = req.url ?? "/";
      const rawBody = Buffer.concat(chunks).toString("utf8");
      let body: unknown = null;
      try {
        body = JSON.parse(rawBody);
      } catch {
        // not JSON
      }
      arrivals.push({ path, at: Date.now(), headers: req.headers, rawBody, body });
      const answer = scripts.get(path)?.(arrivalsAt(path).length) ?? { status: 200, body: "ok" };
      res.writeHead(answer.status, { "content-type": "text/plain", ...answer.headers }).end(answer.body ?? "");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await disconnectDb();
});

describe("webhook delivery retries (0.5, 1.5, 3 and 5 s after the first attempt)", () => {
  it("retries a receiver that fails three times at +0.5, +1.5 and +3 s from the first attempt, then delivers", async () => {
    const { accountId } = await createTestAccount();
    const path = script((n) => (n <= 3 ? { status: 503, body: `not yet ${n}` } : { status: 200, body: "finally" }));
    const endpoint = await endpointFor(accountId, path);
    const { delivery_id } = await inTransaction((tx) =>
      queueTestEvent(tx, OPERATOR, { webhookId: endpoint.webhook_id, actor: "system", sample: sampleGenerationRecord(accountId) }),
    );

    const row = await settled(delivery_id);
    expect(row.status).toBe("delivered");
    expect(row.attempts.map((attempt) => [attempt.attemptNumber, attempt.statusCode, attempt.error])).toEqual([
      [1, 503, "HTTP 503"],
      [2, 503, "HTTP 503"],
      [3, 503, "HTTP 503"],
      [4, 200, null],
    ]);
    expect(row.attempts.map((attempt) => attempt.responseSnippet)).toEqual(["not yet 1", "not yet 2", "not yet 3", "finally"]);

    const seen = arrivalsAt(path);
    expect(seen).toHaveLength(4);
    for (const arrival of seen) expectSigned(arrival, endpoint.secret);
    expect(new Set(seen.map((arrival) => arrival.rawBody)).size).toBe(1);

    const started = offsetsOf(row.attempts.map((attempt) => attempt.createdAt.getTime()));
    const arrived = offsetsOf(seen.map((arrival) => arrival.at));
    // The offsets to the millisecond, on a fake clock: tests/integration/webhooks/retry-schedule.test.ts.
    console.log(`webhook retry offsets: attempts started at +${started.join(", +")} ms; arrived at +${arrived.join(", +")} ms`);
  }, 40_000);

  it("marks an always-failing delivery failed after exactly five attempts (0, 0.5, 1.5, 3, 5 s); a re-send numbers on", async () => {
    const { accountId } = await createTestAccount();
    let healed = false;
    const path = script(() => (healed ? { status: 204 } : { status: 500, body: "down" }));
    const endpoint = await endpointFor(accountId, path);
    const { delivery_id } = await inTransaction((tx) =>
      queueTestEvent(tx, OPERATOR, { webhookId: endpoint.webhook_id, actor: "system", sample: sampleGenerationRecord(accountId) }),
    );

    const row = await settled(delivery_id);
    expect(row.status).toBe("failed");
    expect(row.attemptCount).toBe(5);
    expect(row.attempts.map((attempt) => attempt.attemptNumber)).toEqual([1, 2, 3, 4, 5]);
    const started = offsetsOf(row.attempts.map((attempt) => attempt.createdAt.getTime()));
    console.log(`always-failing delivery: attempts at +${started.join(", +")} ms`);
    // Its run is over: no sixth attempt can come.
    await runOver(`webhook-delivery:${delivery_id}`);
    expect(arrivalsAt(path)).toHaveLength(5);

    healed = true;
    expect(
      await requestResend(db, await inTransaction((tx) => queueResend(tx, OPERATOR, { deliveryId: delivery_id, actor: "system" }))),
    ).toEqual({
      delivery_id,
      delivery_status: "pending",
      from_attempt: 6,
    });
    const resent = await settled(delivery_id);
    expect(resent.status).toBe("delivered");
    expect(resent.attempts.map((attempt) => [attempt.attemptNumber, attempt.statusCode])).toEqual([
      [1, 500],
      [2, 500],
      [3, 500],
      [4, 500],
      [5, 500],
      [6, 204],
    ]);
    expect(arrivalsAt(path)).toHaveLength(6);
  }, 45_000);

  it("does not follow a 302: every attempt fails, the redirect target is never asked", async () => {
    const { accountId } = await createTestAccount();
    const target = script(() => ({ status: 200 }));
    const path = script(() => ({ status: 302, headers: { location: `${base}${target}` } }));
    const endpoint = await endpointFor(accountId, path);
    const { delivery_id } = await inTransaction((tx) =>
      queueTestEvent(tx, OPERATOR, { webhookId: endpoint.webhook_id, actor: "system", sample: sampleGenerationRecord(accountId) }),
    );
    const row = await settled(delivery_id);
    expect(row.status).toBe("failed");
    expect(row.attempts).toHaveLength(5);
    for (const attempt of row.attempts) {
      expect(attempt.statusCode).toBe(302);
      expect(attempt.error).toContain("not followed");
    }
    expect(arrivalsAt(path)).toHaveLength(5);
    expect(arrivalsAt(target)).toHaveLength(0);
  }, 40_000);
});

describe("generation events", () => {
  it("delivers generation.started then generation.completed, signed, during a real generation; a disabled endpoint gets dead letters, replayed after enabling", async () => {
    const { key, accountId } = await accountWithKey();
    const path = script(() => ({ status: 200 }));
    const endpoint = await endpointFor(accountId, path);
    const offPath = script(() => ({ status: 200 }));
    const off = await endpointFor(accountId, offPath);
    await inTransaction((tx) => updateWebhookEndpoint(tx, OPERATOR, { webhookId: off.webhook_id, enabled: false, actor: "system" }));

    const created = expectSuccess(
      await createImage(key, { generation_prompt: "a lighthouse for webhooks", generation_provider_order: "local" }),
      202,
    );
    const record = await waitForStatus(key, created.generation_id);
    expect(record.generation_status).toBe("succeeded");

    await waitFor(() => arrivalsAt(path).length >= 2, undefined, "two generation events");
    const seen = arrivalsAt(path);
    expect(seen.map((arrival) => arrival.body.webhook_event)).toEqual(["generation.started", "generation.completed"]);
    for (const arrival of seen) {
      expectSigned(arrival, endpoint.secret);
      expect(arrival.body.webhook_data).toMatchObject({
        account_id: accountId,
        generation_id: created.generation_id,
        model_identifier: "darkroom/lumen-image",
      });
    }
    const [started, completed] = seen as [Arrival, Arrival];
    expect(started.body.webhook_data.generation_status).toBe("processing");
    expect(completed.body.webhook_data).toMatchObject({
      generation_status: "succeeded",
      generation_provider_used: "local",
      generation_output_file: [expect.stringContaining("http")],
    });
    // The record as GET /v1/content/{id} shows it (output links are signed per answer).
    const withoutLinks = (data: Record<string, unknown>) => ({
      ...data,
      generation_output_file: (data.generation_output_file as string[]).length,
    });
    expect(withoutLinks(completed.body.webhook_data)).toEqual(withoutLinks(record));

    // The disabled endpoint: nothing sent, one dead letter per event, replayable once enabled.
    expect(arrivalsAt(offPath)).toHaveLength(0);
    const letters = await waitFor(async () => {
      const rows = await db.deadLetter.findMany({ where: { endpointId: off.webhook_id }, orderBy: { createdAt: "asc" } });
      return rows.length === 2 ? rows : null;
    });
    expect(letters.map((letter) => letter.eventKey)).toEqual([
      `generation.started:${created.generation_id}`,
      `generation.completed:${created.generation_id}`,
    ]);
    await inTransaction((tx) => updateWebhookEndpoint(tx, OPERATOR, { webhookId: off.webhook_id, enabled: true, actor: "system" }));
    for (const letter of letters)
      await inTransaction((tx) => queueDeadLetterReplay(tx, OPERATOR, { deadLetterId: letter.id, actor: "system" }));
    await waitFor(() => arrivalsAt(offPath).length >= 2, undefined, "replayed dead letters");
    const replayed = arrivalsAt(offPath);
    expect(replayed.map((arrival) => arrival.body.webhook_event).sort()).toEqual(["generation.completed", "generation.started"]);
    for (const arrival of replayed) {
      expectSigned(arrival, off.secret);
      const letter = letters.find((candidate) => candidate.event === arrival.body.webhook_event)!;
      expect(arrival.body.webhook_timestamp).toBe((letter.payload as { webhook_timestamp: string }).webhook_timestamp);
    }
  }, 60_000);

  it("sends webhook.test with a sample generation record: the fields and types of a real generation.completed, marked as a test", async () => {
    const { key, accountId } = await accountWithKey();
    const path = script(() => ({ status: 200 }));
    const endpoint = await endpointFor(accountId, path, ["generation.completed"]);
    const created = expectSuccess(
      await createImage(key, { generation_prompt: "a real one to compare", generation_provider_order: "local" }),
      202,
    );
    await waitFor(() => arrivalsAt(path).length >= 1, undefined, "generation.completed");
    await inTransaction((tx) =>
      queueTestEvent(tx, OPERATOR, { webhookId: endpoint.webhook_id, actor: "system", sample: sampleGenerationRecord(accountId) }),
    );
    await waitFor(() => arrivalsAt(path).length >= 2, undefined, "webhook.test");

    const [completed, test] = arrivalsAt(path) as [Arrival, Arrival];
    expect([completed.body.webhook_event, test.body.webhook_event]).toEqual(["generation.completed", "webhook.test"]);
    expectSigned(test, endpoint.secret);
    const data = test.body.webhook_data as Record<string, unknown>;
    expect(data).toMatchObject({
      test: true,
      webhook_id: endpoint.webhook_id,
      message: expect.stringContaining("test event"),
      account_id: accountId,
      generation_status: "succeeded",
    });
    expect(data.generation_id).toMatch(new RegExp(`^${SAMPLE_GENERATION_ID_PREFIX}[0-9a-f]{12}$`));
    expect(data.generation_id).not.toBe(created.generation_id);
    expect(generationRecordSchema.safeParse(data).error).toBeUndefined();
    const real = completed.body.webhook_data as Record<string, unknown>;
    const typeOf = (value: unknown) => (value === null ? "null" : Array.isArray(value) ? "array" : typeof value);
    const shape = (record: Record<string, unknown>, fields: string[]) =>
      Object.fromEntries(fields.map((field) => [field, typeOf(record[field])]));
    expect(shape(data, Object.keys(real))).toEqual(shape(real, Object.keys(real)));
    expect(
      Object.keys(data)
        .filter((field) => !(field in real))
        .sort(),
    ).toEqual(["message", "test", "webhook_id"]);
  }, 60_000);

  it("delivers generation.failed and generation.canceled", async () => {
    const { key, accountId } = await accountWithKey();
    const path = script(() => ({ status: 200 }));
    const endpoint = await endpointFor(accountId, path, ["generation.failed", "generation.canceled"]);

    const failed = expectSuccess(await createImage(key, { generation_prompt: "doomed [local:fail] [local-backup:fail]" }), 202);
    expect((await waitForStatus(key, failed.generation_id)).generation_status).toBe("failed");
    const slow = expectSuccess(
      await createImage(key, { generation_prompt: "slow [local:slow=3000]", generation_provider_order: "local" }),
      202,
    );
    await waitForStatus(key, slow.generation_id, ["processing"]);
    expectSuccess(await cancel(key, slow.generation_id));

    await waitFor(() => arrivalsAt(path).length >= 2, undefined, "failed and canceled events");
    const byEvent = Object.fromEntries(arrivalsAt(path).map((arrival) => [arrival.body.webhook_event, arrival]));
    expect(Object.keys(byEvent).sort()).toEqual(["generation.canceled", "generation.failed"]);
    expect(byEvent["generation.failed"]!.body.webhook_data).toMatchObject({
      generation_id: failed.generation_id,
      generation_status: "failed",
      generation_error_code: "ERR4004",
    });
    expect(byEvent["generation.canceled"]!.body.webhook_data).toMatchObject({
      generation_id: slow.generation_id,
      generation_status: "canceled",
    });
    for (const arrival of arrivalsAt(path)) expectSigned(arrival, endpoint.secret);
    // Subscribed to neither started nor completed: nothing else is queued, even after the slow job's
    // late result (deliveries are written in a generation's terminal transition, and its run is over).
    await generationRunOver(slow.generation_id);
    expect(await db.webhookDelivery.count({ where: { endpointId: endpoint.webhook_id } })).toBe(2);
    expect(arrivalsAt(path)).toHaveLength(2);
  }, 60_000);

  it("de-duplicates terminal events: generation/finished sent again (new and repeated ids) stays one delivery per endpoint", async () => {
    const { key, accountId } = await accountWithKey();
    const paths = [script(() => ({ status: 200 })), script(() => ({ status: 200 }))];
    const endpoints = await Promise.all(paths.map((path) => endpointFor(accountId, path, ["generation.completed"])));
    const created = expectSuccess(await createImage(key, { generation_prompt: "once only", generation_provider_order: "local" }), 202);
    await waitForStatus(key, created.generation_id);
    for (const path of paths) await waitFor(() => arrivalsAt(path).length >= 1, undefined, "the completed event");

    // Overlapping provider results: the same terminal event again, under fresh and repeated event ids.
    const ids = [`dup-${randomUUID()}`, `dup-${randomUUID()}`];
    await inngest.send([
      ...ids.map((id) => generationFinished.create({ generationId: created.generation_id, accountId, status: "succeeded" }, { id })),
      generationFinished.create(
        { generationId: created.generation_id, accountId, status: "succeeded" },
        { id: `generation-finished:${created.generation_id}` },
      ),
    ]);
    const runs = await waitFor(async () => {
      const found = await db.inngestRun.findMany({
        where: { functionId: "darkroom-webhook-fan-out", eventId: { in: ids }, status: "completed" },
      });
      return found.length === ids.length ? found : null;
    });
    expect(runs.map((run) => run.output)).toEqual([
      { event: "generation.completed", created: 0, duplicates: 2, deadLetters: 0 },
      { event: "generation.completed", created: 0, duplicates: 2, deadLetters: 0 },
    ]);
    expect(
      await db.inngestRun.count({
        where: { functionId: "darkroom-webhook-fan-out", eventId: `generation-finished:${created.generation_id}` },
      }),
    ).toBe(1);

    // One delivery row per endpoint (below), so no second arrival can come.
    for (const [index, path] of paths.entries()) {
      expect(arrivalsAt(path)).toHaveLength(1);
      expect(
        await db.webhookDelivery.count({
          where: { endpointId: endpoints[index]!.webhook_id, eventKey: `generation.completed:${created.generation_id}` },
        }),
      ).toBe(1);
    }
  }, 60_000);

  it("delivers credits.low_balance as the alerts code emits it", async () => {
    const { accountId } = await createTestAccount();
    const path = script(() => ({ status: 200 }));
    const endpoint = await endpointFor(accountId, path, ["credits.low_balance"]);
    const data = { account_id: accountId, current_balance: 0.4, thresholds_crossed: [{ threshold: 0.5, balance_at: 0.4 }] };
    await inTransaction((tx) =>
      queueWebhookEvent(tx, { accountId, event: "credits.low_balance", eventKey: `credits.low_balance:${randomUUID()}`, data }),
    );
    const [arrival] = await waitFor(() => (arrivalsAt(path).length >= 1 ? arrivalsAt(path) : null), undefined, "the low-balance event");
    expectSigned(arrival!, endpoint.secret);
    expect(arrival!.body).toMatchObject({ webhook_event: "credits.low_balance", webhook_data: data });
  }, 30_000);
});
