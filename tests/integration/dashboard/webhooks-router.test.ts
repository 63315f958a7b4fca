import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCaller } from "@/tests/support/dashboard-caller";
import { db, disconnectDb } from "@/server/base/db";
import type { DeliveryStatus } from "@/server/base/generated/prisma/enums";
import { registerExecutor, unregisterExecutor } from "@/server/base/events/executor-registry";
import { inTransaction } from "@/server/base/transaction";
import { queueWebhookEvent } from "@/server/webhooks/emit-webhook-event";
import { addTeamMember, createTestAccount } from "@/tests/support/fixtures";
import { recordingEventSink } from "@/tests/support/event-sink";
import { openEndpointSecret } from "@/server/webhooks/endpoint-secret";
import { trpcFailure } from "@/tests/support/trpc-errors";

// The dashboard's webhooks router through createCaller, against the real database: members read,
// owners change, other accounts see nothing. The delivery runs it requests are caught by a sink
// in this process (nothing is sent anywhere); deliveries for the log views are inserted directly.

const { sink } = recordingEventSink();
beforeAll(() => registerExecutor(sink));
afterAll(async () => {
  unregisterExecutor(sink);
  await disconnectDb();
});

// A public address literal: passes the destination rules without a DNS lookup.
const URL_OK = "https://93.184.215.14/darkroom";

const as = (userId: string | null) => createCaller({ userId }).webhooks;

/** An account with its primary owner, an owner, a member, and one endpoint. */
async function team() {
  const { accountId, userId: primaryOwner } = await createTestAccount();
  const owner = await addTeamMember(accountId, "owner");
  const member = await addTeamMember(accountId, "member");
  const endpoint = await as(primaryOwner).create({ accountId, url: URL_OK, description: "main" });
  return { accountId, primaryOwner, owner, member, webhookId: endpoint.webhook_id };
}

async function expectNotFound(promise: Promise<unknown>) {
  const { code, apiError } = await trpcFailure(promise);
  expect(code).toBe("NOT_FOUND");
  expect(apiError.code).toBe("ERR1006");
}

async function expectInvalid(promise: Promise<unknown>, field: string) {
  const { code, apiError } = await trpcFailure(promise);
  expect(code).toBe("BAD_REQUEST");
  expect(apiError.code).toBe("ERR1001");
  expect(apiError.details.fields).toContainEqual({ field, message: expect.any(String) });
}

let sequence = 0;

/** A delivery row as the executor would leave it, with attempts numbered from 1. */
async function insertDelivery(
  accountId: string,
  webhookId: string,
  options: {
    status?: DeliveryStatus;
    event?: string;
    createdAt?: Date;
    attempts?: Array<{ statusCode: number | null; error: string | null }>;
  } = {},
) {
  const id = randomUUID();
  const event = options.event ?? "generation.completed";
  const attempts = options.attempts ?? [];
  const createdAt = options.createdAt ?? new Date(Date.now() - 60_000 + sequence++);
  await db.webhookDelivery.create({
    data: {
      id,
      endpointId: webhookId,
      accountId,
      event,
      eventKey: `${event}:${id}`,
      payload: { webhook_event: event, webhook_timestamp: createdAt.toISOString(), webhook_delivery_id: id, webhook_data: { n: sequence } },
      status: options.status ?? "pending",
      attemptCount: attempts.length,
      lastAttemptAt: attempts.length ? createdAt : null,
      deliveredAt: options.status === "delivered" ? createdAt : null,
      createdAt,
      attempts: {
        create: attempts.map((attempt, index) => ({
          attemptNumber: index + 1,
          latencyMs: 12,
          responseSnippet: "ok",
          createdAt: new Date(createdAt.getTime() + index),
          ...attempt,
        })),
      },
    },
  });
  return id;
}

/** A dead letter made the way production makes one: an event for a disabled endpoint. */
async function deadLetterFor(accountId: string, webhookId: string, owner: string) {
  await as(owner).setEnabled({ accountId, webhookId, enabled: false });
  const { deadLetters } = await inTransaction((tx) =>
    queueWebhookEvent(tx, {
      accountId,
      event: "generation.failed",
      eventKey: `generation.failed:${randomUUID()}`,
      data: { generation_status: "failed" },
    }),
  );
  expect(deadLetters).toHaveLength(1);
  return deadLetters[0] as string;
}

describe("webhooks router: who may do what", () => {
  it("refuses a signed-out caller with ERR1002", async () => {
    const { accountId, webhookId } = await team();
    for (const call of [
      as(null).list({ accountId }),
      as(null).get({ accountId, webhookId }),
      as(null).create({ accountId, url: URL_OK }),
      as(null).delete({ accountId, webhookId }),
    ]) {
      const { code, apiError } = await trpcFailure(call);
      expect(code).toBe("UNAUTHORIZED");
      expect(apiError.code).toBe("ERR1002");
    }
  });

  it("lets a member read everything and change nothing (ERR1003)", async () => {
    const { accountId, primaryOwner, member, webhookId } = await team();
    const deliveryId = await insertDelivery(accountId, webhookId, { status: "failed", attempts: [{ statusCode: 500, error: "HTTP 500" }] });
    const deadLetterId = await deadLetterFor(accountId, webhookId, primaryOwner);
    await as(primaryOwner).setEnabled({ accountId, webhookId, enabled: true });
    const reader = as(member);

    expect((await reader.eventKinds({ accountId })).map((kind) => kind.event)).toContain("credits.low_balance");
    expect((await reader.list({ accountId })).map((endpoint) => endpoint.webhook_id)).toEqual([webhookId]);
    expect((await reader.get({ accountId, webhookId })).webhook_url).toBe(URL_OK);
    expect((await reader.deliveries({ accountId })).data.map((row) => row.delivery_id)).toEqual([deliveryId]);
    expect((await reader.delivery({ accountId, deliveryId })).attempts).toHaveLength(1);
    expect((await reader.deadLetters({ accountId })).data.map((row) => row.dead_letter_id)).toEqual([deadLetterId]);

    const mutations = [
      reader.create({ accountId, url: URL_OK }),
      reader.setEnabled({ accountId, webhookId, enabled: false }),
      reader.rollSecret({ accountId, webhookId }),
      reader.sendTest({ accountId, webhookId }),
      reader.resendDelivery({ accountId, deliveryId }),
      reader.replayDeadLetter({ accountId, deadLetterId }),
      reader.delete({ accountId, webhookId }),
    ];
    for (const mutation of mutations) {
      const { code, apiError } = await trpcFailure(mutation);
      expect(code).toBe("FORBIDDEN");
      expect(apiError.code).toBe("ERR1003");
    }
    expect(await db.webhookEndpoint.findMany({ where: { accountId }, select: { id: true, enabled: true } })).toEqual([
      { id: webhookId, enabled: true },
    ]);
    expect((await db.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } })).status).toBe("failed");
    expect((await db.deadLetter.findUniqueOrThrow({ where: { id: deadLetterId } })).replayedAt).toBeNull();
  });

  it.each(["owner", "primaryOwner"] as const)("lets the %s create, disable, enable, roll, test and delete", async (role) => {
    const people = await team();
    const { accountId } = people;
    const owner = as(people[role]);

    const created = await owner.create({
      accountId,
      url: URL_OK,
      events: ["generation.failed", "credits.low_balance"],
      description: "  second  ",
    });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(created).toMatchObject({
      account_id: accountId,
      webhook_url: URL_OK,
      webhook_description: "second",
      webhook_events: ["generation.failed", "credits.low_balance"],
      webhook_enabled: true,
    });
    const webhookId = created.webhook_id;
    const listed = await owner.list({ accountId });
    expect(listed.map((endpoint) => endpoint.webhook_id)).toEqual([webhookId, people.webhookId]);
    expect(JSON.stringify(listed)).not.toContain(created.secret);
    expect(JSON.stringify(await owner.get({ accountId, webhookId }))).not.toContain("whsec_");

    expect(await owner.setEnabled({ accountId, webhookId, enabled: false })).toEqual({
      webhook_id: webhookId,
      enabled: false,
      changed: true,
    });
    expect((await owner.get({ accountId, webhookId })).webhook_enabled).toBe(false);
    expect(await owner.setEnabled({ accountId, webhookId, enabled: true })).toEqual({
      webhook_id: webhookId,
      enabled: true,
      changed: true,
    });

    const rolled = await owner.rollSecret({ accountId, webhookId });
    expect(rolled.secret).toMatch(/^whsec_/);
    expect(rolled.secret).not.toBe(created.secret);
    expect(openEndpointSecret(await db.webhookEndpoint.findUniqueOrThrow({ where: { id: webhookId } }))).toBe(rolled.secret);

    const test = await owner.sendTest({ accountId, webhookId });
    const testDelivery = await db.webhookDelivery.findUniqueOrThrow({ where: { id: test.delivery_id } });
    expect(testDelivery).toMatchObject({ endpointId: webhookId, event: "webhook.test", status: "pending" });
    // The sample generation record the router hands to the test event.
    expect((testDelivery.payload as { webhook_data: object }).webhook_data).toMatchObject({
      test: true,
      webhook_id: webhookId,
      account_id: accountId,
      generation_status: "succeeded",
      model_identifier: "darkroom/lumen-image",
    });

    await insertDelivery(accountId, webhookId, { status: "failed", attempts: [{ statusCode: 500, error: "HTTP 500" }] });
    await deadLetterFor(accountId, webhookId, people[role]);
    expect(await owner.delete({ accountId, webhookId })).toEqual({ webhook_id: webhookId, deleted: true });
    expect(await db.webhookEndpoint.findUnique({ where: { id: webhookId } })).toBeNull();
    expect(await db.webhookDelivery.count({ where: { endpointId: webhookId } })).toBe(0);
    expect(await db.deadLetter.count({ where: { endpointId: webhookId } })).toBe(0);
    await expectNotFound(owner.get({ accountId, webhookId }));
    await expectNotFound(owner.delete({ accountId, webhookId }));

    const actions = await db.activityEvent.findMany({
      where: { accountId, actor: people[role], category: "webhook" },
      orderBy: { createdAt: "asc" },
      select: { action: true },
    });
    expect(actions.map((event) => event.action)).toEqual(
      expect.arrayContaining([
        "webhook.created",
        "webhook.disabled",
        "webhook.enabled",
        "webhook.secret_rolled",
        "webhook.test_sent",
        "webhook.deleted",
      ]),
    );
  });
});

describe("webhooks router: another account", () => {
  it("is ERR1006 for the account and for this account's ids, even with the caller's own account", async () => {
    const victim = await team();
    const deliveryId = await insertDelivery(victim.accountId, victim.webhookId, {
      status: "failed",
      attempts: [{ statusCode: 500, error: "HTTP 500" }],
    });
    const deadLetterId = await deadLetterFor(victim.accountId, victim.webhookId, victim.owner);
    await as(victim.owner).setEnabled({ accountId: victim.accountId, webhookId: victim.webhookId, enabled: true });
    const stranger = await createTestAccount();
    const other = as(stranger.userId);
    const accountId = stranger.accountId;
    const { webhookId } = victim;

    await expectNotFound(other.list({ accountId: victim.accountId }));
    await expectNotFound(other.create({ accountId: victim.accountId, url: URL_OK }));
    await expectNotFound(other.get({ accountId, webhookId }));
    await expectNotFound(other.deliveries({ accountId, webhookId }));
    await expectNotFound(other.delivery({ accountId, deliveryId }));
    await expectNotFound(other.deadLetters({ accountId, webhookId }));
    await expectNotFound(other.setEnabled({ accountId, webhookId, enabled: false }));
    await expectNotFound(other.rollSecret({ accountId, webhookId }));
    await expectNotFound(other.sendTest({ accountId, webhookId }));
    await expectNotFound(other.resendDelivery({ accountId, deliveryId }));
    await expectNotFound(other.replayDeadLetter({ accountId, deadLetterId }));
    await expectNotFound(other.delete({ accountId, webhookId }));

    expect(await other.list({ accountId })).toEqual([]);
    expect((await other.deliveries({ accountId })).total).toBe(0);
    expect((await other.deadLetters({ accountId })).total).toBe(0);
    const endpoint = await db.webhookEndpoint.findUniqueOrThrow({ where: { id: webhookId } });
    expect(endpoint.enabled).toBe(true);
    expect((await db.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } })).status).toBe("failed");
    expect((await db.deadLetter.findUniqueOrThrow({ where: { id: deadLetterId } })).replayedAt).toBeNull();
    expect(await db.activityEvent.count({ where: { actor: stranger.userId } })).toBe(0);
  });
});

describe("webhooks router: bad input", () => {
  it("refuses unsafe URLs and oversized fields with ERR1001 naming the field", async () => {
    const { accountId, owner } = await team();
    const caller = as(owner);
    await expectInvalid(caller.create({ accountId, url: "http://93.184.215.14/hook" }), "url");
    await expectInvalid(caller.create({ accountId, url: "https://user:secret@93.184.215.14/hook" }), "url");
    await expectInvalid(caller.create({ accountId, url: "https://10.0.0.5/hook" }), "url");
    await expectInvalid(caller.create({ accountId, url: `https://93.184.215.14/${"a".repeat(2048)}` }), "url");
    await expectInvalid(caller.create({ accountId, url: URL_OK, description: "d".repeat(201) }), "description");
    await expectInvalid(caller.create({ accountId, url: URL_OK, events: ["generation.done"] }), "events");
    await expectInvalid(caller.create({ accountId, url: URL_OK, events: [] }), "events");
    await expectInvalid(caller.create({ accountId, url: URL_OK, events: Array.from({ length: 21 }, () => "webhook.test") }), "events");
    const { apiError } = await trpcFailure(caller.create({ accountId, url: "http://93.184.215.14/hook" }));
    expect(apiError.message).toContain("http://93.184.215.14/hook");
    expect(apiError.details).toMatchObject({ reason: "scheme_not_https" });
    expect(await db.webhookEndpoint.count({ where: { accountId } })).toBe(1);
  });

  it("answers ERR1006, never a 500, for malformed ids", async () => {
    const { accountId, owner } = await team();
    const caller = as(owner);
    for (const bad of ["nope", "", "12345678-1234-1234-1234-1234567890123", "'; drop table webhook_endpoint; --"]) {
      await expectNotFound(caller.get({ accountId, webhookId: bad }));
      await expectNotFound(caller.deliveries({ accountId, webhookId: bad }));
      await expectNotFound(caller.delivery({ accountId, deliveryId: bad }));
      await expectNotFound(caller.deadLetters({ accountId, webhookId: bad }));
      await expectNotFound(caller.setEnabled({ accountId, webhookId: bad, enabled: false }));
      await expectNotFound(caller.rollSecret({ accountId, webhookId: bad }));
      await expectNotFound(caller.sendTest({ accountId, webhookId: bad }));
      await expectNotFound(caller.resendDelivery({ accountId, deliveryId: bad }));
      await expectNotFound(caller.replayDeadLetter({ accountId, deadLetterId: bad }));
      await expectNotFound(caller.delete({ accountId, webhookId: bad }));
      await expectNotFound(caller.list({ accountId: bad }));
    }
    await expectNotFound(caller.get({ accountId, webhookId: randomUUID() }));
  });

  it("refuses page sizes outside 1..100 and negative offsets", async () => {
    const { accountId, member } = await team();
    await expectInvalid(as(member).deliveries({ accountId, limit: 0 }), "limit");
    await expectInvalid(as(member).deliveries({ accountId, limit: 101 }), "limit");
    await expectInvalid(as(member).deadLetters({ accountId, offset: -1 }), "offset");
    await expectInvalid(as(member).deliveries({ accountId, status: "lost" as DeliveryStatus }), "status");
  });
});

describe("webhooks router: delivery log", () => {
  it("pages newest first with total, limit and offset, and filters by status, endpoint and event", async () => {
    const { accountId, owner, member, webhookId } = await team();
    const second = (await as(owner).create({ accountId, url: URL_OK })).webhook_id;
    const statuses: DeliveryStatus[] = ["delivered", "failed", "pending"];
    const ids: string[] = [];
    for (let i = 0; i < 30; i++)
      ids.push(
        await insertDelivery(accountId, i % 5 === 0 ? second : webhookId, {
          status: statuses[i % 3],
          event: i % 2 ? "generation.failed" : "generation.completed",
        }),
      );
    const newestFirst = [...ids].reverse();
    const reader = as(member);

    const first = await reader.deliveries({ accountId });
    expect(first).toMatchObject({ total: 30, limit: 25, offset: 0 });
    expect(first.data.map((row) => row.delivery_id)).toEqual(newestFirst.slice(0, 25));
    const last = await reader.deliveries({ accountId, limit: 10, offset: 25 });
    expect(last).toMatchObject({ total: 30, limit: 10, offset: 25 });
    expect(last.data.map((row) => row.delivery_id)).toEqual(newestFirst.slice(25));
    expect((await reader.deliveries({ accountId, offset: 100 })).data).toEqual([]);

    const failed = await reader.deliveries({ accountId, status: "failed", limit: 100 });
    expect(failed.total).toBe(10);
    expect(failed.data.every((row) => row.status === "failed")).toBe(true);
    expect((await reader.deliveries({ accountId, webhookId: second })).total).toBe(6);
    expect((await reader.deliveries({ accountId, event: "generation.failed" })).total).toBe(15);
    expect((await reader.deliveries({ accountId, webhookId: second, status: "delivered" })).total).toBe(2);
  });

  it("shows each delivery's newest attempt in the list and every attempt, oldest first, in the detail", async () => {
    const { accountId, member, webhookId } = await team();
    const deliveryId = await insertDelivery(accountId, webhookId, {
      status: "failed",
      attempts: [
        { statusCode: null, error: "Error: connect ECONNREFUSED" },
        { statusCode: 502, error: "HTTP 502" },
        { statusCode: 500, error: "HTTP 500" },
      ],
    });
    const [row] = (await as(member).deliveries({ accountId })).data;
    expect(row).toEqual({
      delivery_id: deliveryId,
      webhook_id: webhookId,
      webhook_url: URL_OK,
      event: "generation.completed",
      status: "failed",
      attempt_count: 3,
      last_attempt_at: expect.any(String),
      delivered_at: null,
      created_at: expect.any(String),
      last_status_code: 500,
      last_error: "HTTP 500",
    });
    const detail = await as(member).delivery({ accountId, deliveryId });
    expect(detail).toMatchObject({ ...row, payload: { webhook_event: "generation.completed", webhook_delivery_id: deliveryId } });
    expect(detail.attempts.map((attempt) => [attempt.attempt_number, attempt.status_code, attempt.error])).toEqual([
      [1, null, "Error: connect ECONNREFUSED"],
      [2, 502, "HTTP 502"],
      [3, 500, "HTTP 500"],
    ]);
    expect(detail.attempts[0]).toEqual({
      attempt_number: 1,
      status_code: null,
      latency_ms: 12,
      response_snippet: "ok",
      error: "Error: connect ECONNREFUSED",
      created_at: expect.any(String),
    });
  });

  it("counts each endpoint's deliveries of the last 24 hours in the list", async () => {
    const { accountId, member, webhookId, owner } = await team();
    const quiet = (await as(owner).create({ accountId, url: URL_OK })).webhook_id;
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 3600_000);
    await insertDelivery(accountId, webhookId, { status: "delivered", createdAt: twoDaysAgo });
    await insertDelivery(accountId, webhookId, { status: "delivered" });
    await insertDelivery(accountId, webhookId, { status: "failed" });
    await insertDelivery(accountId, webhookId, { status: "failed" });
    const newest = await insertDelivery(accountId, webhookId, { status: "pending" });
    const newestAt = (await db.webhookDelivery.findUniqueOrThrow({ where: { id: newest } })).createdAt.toISOString();

    const stats = Object.fromEntries((await as(member).list({ accountId })).map((endpoint) => [endpoint.webhook_id, endpoint.stats]));
    expect(stats[webhookId]).toEqual({
      webhook_id: webhookId,
      last_24h: { delivered: 1, failed: 2, pending: 1 },
      last_delivery_at: newestAt,
    });
    expect(stats[quiet]).toEqual({ webhook_id: quiet, last_24h: { delivered: 0, failed: 0, pending: 0 }, last_delivery_at: null });
  });

  it("re-sends only a failed delivery", async () => {
    const { accountId, owner, webhookId } = await team();
    const pending = await insertDelivery(accountId, webhookId, { status: "pending" });
    const delivered = await insertDelivery(accountId, webhookId, { status: "delivered", attempts: [{ statusCode: 200, error: null }] });
    const failed = await insertDelivery(accountId, webhookId, { status: "failed", attempts: [{ statusCode: 500, error: "HTTP 500" }] });
    await expectInvalid(as(owner).resendDelivery({ accountId, deliveryId: pending }), "delivery_id");
    await expectInvalid(as(owner).resendDelivery({ accountId, deliveryId: delivered }), "delivery_id");
    expect(await as(owner).resendDelivery({ accountId, deliveryId: failed })).toEqual({
      delivery_id: failed,
      delivery_status: "pending",
      from_attempt: 2,
    });
    expect((await db.webhookDelivery.findUniqueOrThrow({ where: { id: failed } })).status).toBe("pending");
  });
});

describe("webhooks router: dead letters", () => {
  it("lists the event a disabled endpoint missed and replays it once the endpoint is enabled again", async () => {
    const { accountId, owner, member, webhookId } = await team();
    const deadLetterId = await deadLetterFor(accountId, webhookId, owner);

    const waiting = await as(member).deadLetters({ accountId, replayed: false });
    expect(waiting).toMatchObject({ total: 1, limit: 25, offset: 0 });
    expect(waiting.data[0]).toEqual({
      dead_letter_id: deadLetterId,
      webhook_id: webhookId,
      webhook_url: URL_OK,
      event: "generation.failed",
      reason: "endpoint_disabled",
      created_at: expect.any(String),
      replayed_at: null,
      replay_delivery_id: null,
    });
    expect((await as(member).deadLetters({ accountId, replayed: true })).total).toBe(0);

    const refused = await trpcFailure(as(owner).replayDeadLetter({ accountId, deadLetterId }));
    expect(refused.code).toBe("BAD_REQUEST");
    expect(refused.apiError.code).toBe("ERR1001");
    expect(refused.apiError.message).toContain("disabled");

    await as(owner).setEnabled({ accountId, webhookId, enabled: true });
    const replayed = await as(owner).replayDeadLetter({ accountId, deadLetterId });
    expect(replayed).toEqual({ dead_letter_id: deadLetterId, delivery_id: expect.any(String), already_replayed: false });
    const deliveries = await as(member).deliveries({ accountId, webhookId });
    expect(deliveries.data.map((row) => [row.delivery_id, row.event, row.status])).toEqual([
      [replayed.delivery_id, "generation.failed", "pending"],
    ]);

    const done = await as(member).deadLetters({ accountId, replayed: true, webhookId });
    expect(done.data).toEqual([
      expect.objectContaining({ dead_letter_id: deadLetterId, replayed_at: expect.any(String), replay_delivery_id: replayed.delivery_id }),
    ]);
    expect((await as(member).deadLetters({ accountId, replayed: false })).total).toBe(0);
    expect(await as(owner).replayDeadLetter({ accountId, deadLetterId })).toEqual({ ...replayed, already_replayed: true });
  });
});
