import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountScope, OPERATOR, type AccountScope } from "@/server/base/account-scope";
import { db, disconnectDb } from "@/server/base/db";
import { ApiError } from "@/server/base/error-table";
import { InvalidEventError } from "@/server/base/events/event-store";
import { registerExecutor, unregisterExecutor, type EventSink } from "@/server/base/events/executor-registry";
import type { Resolver } from "@/server/base/net/resolve-and-check";
import { createWebhookEndpoint } from "@/server/webhooks/create-endpoint";
import { queueWebhookEvent, type EmitWebhookEventInput } from "@/server/webhooks/emit-webhook-event";
import { failDelivery } from "@/server/webhooks/fail-delivery";
import { listWebhookEndpoints } from "@/server/webhooks/list-endpoints";
import { queueDeadLetterReplay, type ReplayDeadLetterInput } from "@/server/webhooks/replay-dead-letter";
import { queueResend, requestResend, type ResendDeliveryInput } from "@/server/webhooks/resend-delivery";
import { openEndpointSecret } from "@/server/webhooks/endpoint-secret";
import { rollWebhookSecret } from "@/server/webhooks/roll-secret";
import { queueTestEvent, type SendTestEventInput } from "@/server/webhooks/send-test-event";
import { sampleGenerationRecord } from "@/server/generations/records/sample-record";
import { updateWebhookEndpoint } from "@/server/webhooks/update-endpoint";
import { createTestAccount } from "@/tests/support/fixtures";
import { recordingEventSink, type SentEvent } from "@/tests/support/event-sink";
import { inTransaction } from "@/server/base/transaction";
import { runRetention } from "@/server/retention/run-retention";

// Endpoints, events, dead letters, replay, re-send and retention against the real database. The
// events these functions send are caught by a sink registered in this process, so the running
// test app does not deliver them: what is checked here is exactly what was queued.

const { sink, sent } = recordingEventSink();

const publicResolver: Resolver = async () => [{ address: "93.184.215.14", family: 4 }];
const strict = { allowLoopback: false, resolver: publicResolver };
const PUBLIC_URL = "https://hooks.example.com/darkroom";

async function endpoint(accountId: string, options: { events?: string[]; url?: string } = {}) {
  return inTransaction((tx) =>
    createWebhookEndpoint(tx, {
      accountId,
      url: options.url ?? PUBLIC_URL,
      events: options.events,
      actor: "system",
      network: { resolver: publicResolver },
    }),
  );
}

async function setEnabled(webhookId: string, enabled: boolean) {
  return inTransaction((tx) => updateWebhookEndpoint(tx, OPERATOR, { webhookId, enabled, actor: "system" }));
}

// Each call as its callers make it: in a transaction of its own, the runs requested after commit.
const emitEvent = (input: EmitWebhookEventInput) => inTransaction((tx) => queueWebhookEvent(tx, input));
const replay = (scope: AccountScope, input: ReplayDeadLetterInput) => inTransaction((tx) => queueDeadLetterReplay(tx, scope, input));
const resend = async (scope: AccountScope, input: ResendDeliveryInput) =>
  requestResend(db, await inTransaction((tx) => queueResend(tx, scope, input)));
const sendTest = (scope: AccountScope, input: SendTestEventInput) => inTransaction((tx) => queueTestEvent(tx, scope, input));
const fail = (deliveryId: string) => inTransaction((tx) => failDelivery(tx, deliveryId));

async function caught(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

const sentFor = (deliveryId: string) => sent.filter((event) => event.data.deliveryId === deliveryId);

beforeAll(() => registerExecutor(sink));

afterAll(async () => {
  unregisterExecutor(sink);
  await disconnectDb();
});

describe("webhook endpoints", () => {
  it("creates an endpoint with a whsec_ secret shown once, the default events and an audit entry", async () => {
    const { accountId } = await createTestAccount();
    const created = await endpoint(accountId);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(created).toMatchObject({
      account_id: accountId,
      webhook_url: PUBLIC_URL,
      webhook_enabled: true,
      webhook_events: ["generation.started", "generation.completed", "generation.failed", "generation.canceled", "credits.low_balance"],
      webhook_disabled_at: null,
    });
    const row = await db.webhookEndpoint.findUniqueOrThrow({ where: { id: created.webhook_id } });
    // Stored sealed, never as sent: it opens to the secret shown once.
    expect(row.secret).not.toContain(created.secret.slice("whsec_".length));
    expect(openEndpointSecret(row)).toBe(created.secret);

    const listed = await listWebhookEndpoints(db, accountId);
    expect(listed).toHaveLength(1);
    expect(JSON.stringify(listed)).not.toContain(created.secret);

    const activity = await db.activityEvent.findFirstOrThrow({ where: { accountId, action: "webhook.created" } });
    expect(activity).toMatchObject({ category: "webhook", actor: "system" });
    expect(JSON.stringify(activity)).not.toContain(created.secret);
  });

  it("keeps the subscribed events and refuses unknown ones, an empty list, an unknown account", async () => {
    const { accountId } = await createTestAccount();
    expect((await endpoint(accountId, { events: ["webhook.test", "credits.low_balance"] })).webhook_events).toEqual([
      "credits.low_balance",
      "webhook.test",
    ]);
    expect((await caught(endpoint(accountId, { events: ["generation.done"] }))).code).toBe("ERR1001");
    expect((await caught(endpoint(accountId, { events: [] }))).code).toBe("ERR1001");
    expect((await caught(endpoint(randomUUID()))).code).toBe("ERR1006");
  });

  const refusals: Array<[string, string, string, Resolver?]> = [
    ["a private IPv4 literal", "https://10.0.0.5/hook", "private"],
    ["the cloud metadata address", "https://169.254.169.254/latest", "link_local"],
    ["a loopback literal (without the development setting)", "https://127.0.0.1/hook", "loopback"],
    ["an IPv6 loopback literal", "https://[::1]/hook", "loopback"],
    ["a NAT64 address", "https://[64:ff9b::a00:1]/hook", "translated"],
    ["localhost", "https://localhost/hook", "localhost"],
    ["http", "http://hooks.example.com/hook", "scheme_not_https"],
    ["a port other than 443", "https://hooks.example.com:8443/hook", "port_not_443"],
    ["credentials in the URL", "https://user:secret@hooks.example.com/hook", "credentials_in_url"],
    [
      "a host resolving to a private address",
      "https://inside.example.com/hook",
      "private",
      async () => [{ address: "192.168.1.20", family: 4 }],
    ],
    [
      "a host with one public and one private address",
      "https://mixed.example.com/hook",
      "private",
      async () => [
        { address: "93.184.215.14", family: 4 },
        { address: "10.1.2.3", family: 4 },
      ],
    ],
    [
      "a host resolving to IPv4-mapped loopback",
      "https://mapped.example.com/hook",
      "loopback",
      async () => [{ address: "::ffff:127.0.0.1", family: 6 }],
    ],
    [
      "a host that does not resolve",
      "https://nowhere.example.com/hook",
      "unresolvable",
      async () => Promise.reject(Object.assign(new Error("getaddrinfo ENOTFOUND"), { code: "ENOTFOUND" })),
    ],
    ["not a URL", "hooks dot example", "invalid_url"],
  ];

  it.each(refusals)("refuses %s at save time with ERR1001 naming the URL and the reason", async (_label, url, reason, resolver) => {
    const { accountId } = await createTestAccount();
    const error = await caught(
      inTransaction((tx) =>
        createWebhookEndpoint(tx, { accountId, url, actor: "system", network: { ...strict, ...(resolver ? { resolver } : {}) } }),
      ),
    );
    expect(error.code).toBe("ERR1001");
    expect(error.message).toContain(url);
    expect(error.details).toMatchObject({ url, reason, fields: [{ field: "url", message: expect.any(String) }] });
    expect(await db.webhookEndpoint.count({ where: { accountId } })).toBe(0);
  });

  it.each([
    ["loopback", "127.0.0.1", "a loopback address"],
    ["private", "10.20.30.40", "a private address"],
    ["link_local", "fe80::7", "a link-local address"],
  ])("a refusal for a host resolving to a %s address names the rule, never the address (https://vm/x)", async (reason, address, words) => {
    const { accountId } = await createTestAccount();
    const resolver: Resolver = async () => [{ address, family: address.includes(":") ? 6 : 4 }];
    const error = await caught(
      inTransaction((tx) =>
        createWebhookEndpoint(tx, { accountId, url: "https://vm/x", actor: "system", network: { ...strict, resolver } }),
      ),
    );
    expect(error.code).toBe("ERR1001");
    expect(error.message).toContain(`the host vm resolves to ${words}`);
    expect(error.message).toContain("destinations must resolve only to public addresses");
    expect(JSON.stringify(error.toBody())).not.toContain(address);
    expect(error.details).toMatchObject({ reason });
  });

  it("enables and disables, idempotently, with audit entries; another account's endpoint is not found", async () => {
    const { accountId } = await createTestAccount();
    const created = await endpoint(accountId);
    expect(await setEnabled(created.webhook_id, false)).toEqual({ webhook_id: created.webhook_id, enabled: false, changed: true });
    expect(await setEnabled(created.webhook_id, false)).toEqual({ webhook_id: created.webhook_id, enabled: false, changed: false });
    expect((await db.webhookEndpoint.findUniqueOrThrow({ where: { id: created.webhook_id } })).disabledAt).toBeInstanceOf(Date);
    expect(await setEnabled(created.webhook_id, true)).toEqual({ webhook_id: created.webhook_id, enabled: true, changed: true });
    expect((await db.webhookEndpoint.findUniqueOrThrow({ where: { id: created.webhook_id } })).disabledAt).toBeNull();
    const actions = (await db.activityEvent.findMany({ where: { accountId, category: "webhook" }, orderBy: { createdAt: "asc" } })).map(
      (event) => event.action,
    );
    expect(actions).toEqual(["webhook.created", "webhook.disabled", "webhook.enabled"]);

    const other = await createTestAccount();
    expect(
      (
        await caught(
          inTransaction((tx) =>
            updateWebhookEndpoint(tx, accountScope(other.accountId), { webhookId: created.webhook_id, enabled: false, actor: "system" }),
          ),
        )
      ).code,
    ).toBe("ERR1006");
    expect(
      (await caught(inTransaction((tx) => updateWebhookEndpoint(tx, OPERATOR, { webhookId: "nope", enabled: false, actor: "system" }))))
        .code,
    ).toBe("ERR1006");
  });

  it("rolls the secret: a new one, returned once", async () => {
    const { accountId } = await createTestAccount();
    const created = await endpoint(accountId);
    const rolled = await inTransaction((tx) => rollWebhookSecret(tx, OPERATOR, { webhookId: created.webhook_id, actor: "system" }));
    expect(rolled.webhook_id).toBe(created.webhook_id);
    expect(rolled.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(rolled.secret).not.toBe(created.secret);
    expect(openEndpointSecret(await db.webhookEndpoint.findUniqueOrThrow({ where: { id: created.webhook_id } }))).toBe(rolled.secret);
    expect(await db.activityEvent.count({ where: { accountId, action: "webhook.secret_rolled" } })).toBe(1);
  });
});

describe("emitWebhookEvent", () => {
  it("queues one delivery per subscribed enabled endpoint, a dead letter per disabled one, nothing for the rest", async () => {
    const { accountId } = await createTestAccount();
    const a = await endpoint(accountId);
    const b = await endpoint(accountId, { events: ["credits.low_balance"] });
    const unsubscribed = await endpoint(accountId, { events: ["generation.completed"] });
    const off = await endpoint(accountId);
    await setEnabled(off.webhook_id, false);

    const eventKey = `credits.low_balance:${randomUUID()}`;
    const data = {
      account_id: accountId,
      current_balance: 0.42,
      thresholds_crossed: [{ threshold: 0.5, balance_at: "2026-01-01T00:00:00.000Z" }],
    };
    const result = await emitEvent({ accountId, event: "credits.low_balance", eventKey, data });
    expect(result.created).toHaveLength(2);
    expect(result.duplicates).toEqual([]);
    expect(result.deadLetters).toHaveLength(1);

    const deliveries = await db.webhookDelivery.findMany({ where: { accountId } });
    expect(deliveries.map((row) => row.endpointId).sort()).toEqual([a.webhook_id, b.webhook_id].sort());
    expect(deliveries.some((row) => row.endpointId === unsubscribed.webhook_id)).toBe(false);
    for (const row of deliveries) {
      expect(row).toMatchObject({ event: "credits.low_balance", eventKey, status: "pending", attemptCount: 0 });
      expect(row.payload).toEqual({
        webhook_event: "credits.low_balance",
        webhook_timestamp: expect.any(String),
        webhook_delivery_id: row.id,
        webhook_data: data,
      });
      expect(sentFor(row.id)).toEqual([
        expect.objectContaining({
          id: `webhook-delivery:${row.id}`,
          name: "webhook/delivery.requested",
          data: { deliveryId: row.id, fromAttempt: 1 },
        }),
      ]);
    }
    const letter = await db.deadLetter.findFirstOrThrow({ where: { endpointId: off.webhook_id } });
    expect(letter).toMatchObject({ event: "credits.low_balance", eventKey, reason: "endpoint_disabled", replayedAt: null });
    expect(letter.payload).toMatchObject({ webhook_event: "credits.low_balance", webhook_data: data });
  });

  it("de-duplicates: the same event key emitted again, or ten times at once, stays one delivery per endpoint", async () => {
    const { accountId } = await createTestAccount();
    const a = await endpoint(accountId);
    const b = await endpoint(accountId);
    const off = await endpoint(accountId);
    await setEnabled(off.webhook_id, false);
    const generationId = randomUUID();
    const emit = () =>
      emitEvent({
        accountId,
        event: "generation.completed",
        eventKey: `generation.completed:${generationId}`,
        data: { generation_id: generationId },
      });

    const first = await emit();
    const again = await emit();
    expect(again.created).toEqual([]);
    expect(again.duplicates.sort()).toEqual(first.created.sort());
    const overlapping = await Promise.all(Array.from({ length: 10 }, emit));
    expect(overlapping.flatMap((result) => result.created)).toEqual([]);

    const rows = await db.webhookDelivery.findMany({ where: { accountId } });
    expect(rows.map((row) => row.endpointId).sort()).toEqual([a.webhook_id, b.webhook_id].sort());
    expect(await db.deadLetter.count({ where: { accountId } })).toBe(1);
    // Re-requests of a not-yet-attempted delivery reuse its event id: at most one run each.
    for (const row of rows) expect(new Set(sentFor(row.id).map((event) => event.id))).toEqual(new Set([`webhook-delivery:${row.id}`]));
  });

  it("sends nothing once a delivery has been attempted, whatever is emitted again", async () => {
    const { accountId } = await createTestAccount();
    await endpoint(accountId);
    const eventKey = `generation.failed:${randomUUID()}`;
    const [deliveryId] = (await emitEvent({ accountId, event: "generation.failed", eventKey, data: {} })).created;
    await db.webhookDelivery.update({ where: { id: deliveryId }, data: { attemptCount: 1, status: "delivered" } });
    const before = sentFor(deliveryId as string).length;
    expect((await emitEvent({ accountId, event: "generation.failed", eventKey, data: {} })).duplicates).toEqual([deliveryId]);
    expect(sentFor(deliveryId as string)).toHaveLength(before);
  });
});

describe("dead letters and their replay", () => {
  it("replays only once the endpoint is enabled again, once, with the original event", async () => {
    const { accountId } = await createTestAccount();
    const created = await endpoint(accountId);
    await setEnabled(created.webhook_id, false);
    const eventKey = `generation.canceled:${randomUUID()}`;
    const { deadLetters } = await emitEvent({ accountId, event: "generation.canceled", eventKey, data: { generation_status: "canceled" } });
    const deadLetterId = deadLetters[0] as string;
    const letter = await db.deadLetter.findUniqueOrThrow({ where: { id: deadLetterId } });

    const refused = await caught(replay(OPERATOR, { deadLetterId, actor: "system" }));
    expect(refused.code).toBe("ERR1001");
    expect(refused.message).toContain("disabled");

    await setEnabled(created.webhook_id, true);
    const other = await createTestAccount();
    expect((await caught(replay(accountScope(other.accountId), { deadLetterId, actor: "system" }))).code).toBe("ERR1006");

    const replayed = await replay(accountScope(accountId), { deadLetterId, actor: "system" });
    expect(replayed).toEqual({ dead_letter_id: deadLetterId, delivery_id: expect.any(String), already_replayed: false });
    const delivery = await db.webhookDelivery.findUniqueOrThrow({ where: { id: replayed.delivery_id } });
    expect(delivery).toMatchObject({
      endpointId: created.webhook_id,
      event: "generation.canceled",
      eventKey: `replay:${deadLetterId}`,
      status: "pending",
    });
    expect(delivery.payload).toEqual({ ...(letter.payload as object), webhook_delivery_id: delivery.id });
    expect(sentFor(delivery.id).map((event) => event.id)).toEqual([`webhook-delivery:${delivery.id}`]);
    const after = await db.deadLetter.findUniqueOrThrow({ where: { id: deadLetterId } });
    expect(after.replayedAt).toBeInstanceOf(Date);
    expect(after.replayDeliveryId).toBe(delivery.id);
    expect(await db.activityEvent.count({ where: { accountId, action: "webhook.dead_letter_replayed" } })).toBe(1);

    expect(await replay(OPERATOR, { deadLetterId, actor: "system" })).toEqual({
      dead_letter_id: deadLetterId,
      delivery_id: delivery.id,
      already_replayed: true,
    });
    expect(await db.webhookDelivery.count({ where: { endpointId: created.webhook_id } })).toBe(1);
  });

  it("replays concurrently requested only once", async () => {
    const { accountId } = await createTestAccount();
    const created = await endpoint(accountId);
    await setEnabled(created.webhook_id, false);
    const { deadLetters } = await emitEvent({
      accountId,
      event: "credits.low_balance",
      eventKey: `credits.low_balance:${randomUUID()}`,
      data: {},
    });
    await setEnabled(created.webhook_id, true);
    const results = await Promise.all(
      Array.from({ length: 5 }, () => replay(OPERATOR, { deadLetterId: deadLetters[0] as string, actor: "system" })),
    );
    expect(new Set(results.map((result) => result.delivery_id)).size).toBe(1);
    expect(results.filter((result) => !result.already_replayed)).toHaveLength(1);
    expect(await db.webhookDelivery.count({ where: { endpointId: created.webhook_id } })).toBe(1);
  });
});

describe("re-send and test events", () => {
  it("re-sends a failed delivery once, numbering on from its last attempt", async () => {
    const { accountId } = await createTestAccount();
    const created = await endpoint(accountId);
    const [deliveryId] = (
      await emitEvent({ accountId, event: "generation.completed", eventKey: `generation.completed:${randomUUID()}`, data: {} })
    ).created as [string];

    expect((await caught(resend(OPERATOR, { deliveryId, actor: "system" }))).message).toContain("pending");
    await db.webhookDelivery.update({ where: { id: deliveryId }, data: { attemptCount: 5 } });
    expect(await fail(deliveryId)).toEqual({ failed: true });

    const resent = await resend(accountScope(accountId), { deliveryId, actor: "system" });
    expect(resent).toEqual({ delivery_id: deliveryId, delivery_status: "pending", from_attempt: 6 });
    const request = sentFor(deliveryId).at(-1) as SentEvent;
    expect(request.id).toMatch(new RegExp(`^webhook-delivery:${deliveryId}:resend:`));
    expect(request.data).toEqual({ deliveryId, fromAttempt: 6 });
    expect((await caught(resend(OPERATOR, { deliveryId, actor: "system" }))).code).toBe("ERR1001");
    expect(await db.activityEvent.count({ where: { accountId, action: "webhook.delivery_resent" } })).toBe(1);

    await fail(deliveryId);
    await setEnabled(created.webhook_id, false);
    expect((await caught(resend(OPERATOR, { deliveryId, actor: "system" }))).message).toContain("disabled");
    expect((await caught(resend(OPERATOR, { deliveryId: randomUUID(), actor: "system" }))).code).toBe("ERR1006");
  });

  it("puts a re-sent delivery back to failed, and answers the error, when its run cannot be requested", async () => {
    const { accountId } = await createTestAccount();
    await endpoint(accountId);
    const [deliveryId] = (
      await emitEvent({ accountId, event: "generation.completed", eventKey: `generation.completed:${randomUUID()}`, data: {} })
    ).created as [string];
    await fail(deliveryId);
    const refusing: EventSink = {
      ingestEvents: async () => {
        throw new InvalidEventError("the event API refused it");
      },
    };
    registerExecutor(refusing);
    try {
      await expect(resend(OPERATOR, { deliveryId, actor: "system" })).rejects.toThrow();
    } finally {
      registerExecutor(sink);
    }
    expect((await db.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } })).status).toBe("failed");
    expect(await resend(OPERATOR, { deliveryId, actor: "system" })).toEqual({
      delivery_id: deliveryId,
      delivery_status: "pending",
      from_attempt: 1,
    });
  });

  it("sends webhook.test to that endpoint only, subscribed or not; not to a disabled one", async () => {
    const { accountId } = await createTestAccount();
    const target = await endpoint(accountId, { events: ["generation.completed"] });
    const bystander = await endpoint(accountId, { events: ["webhook.test"] });
    const sentTest = await sendTest(accountScope(accountId), {
      webhookId: target.webhook_id,
      actor: "system",
      sample: sampleGenerationRecord(accountId),
    });
    expect(sentTest).toEqual({ webhook_id: target.webhook_id, delivery_id: expect.any(String), webhook_event: "webhook.test" });
    const rows = await db.webhookDelivery.findMany({ where: { accountId } });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: sentTest.delivery_id, endpointId: target.webhook_id, event: "webhook.test" });
    expect((rows[0]!.payload as { webhook_data: object }).webhook_data).toMatchObject({ webhook_id: target.webhook_id });
    expect(sentFor(sentTest.delivery_id)).toHaveLength(1);
    expect(bystander.webhook_id).not.toBe(target.webhook_id);

    await setEnabled(target.webhook_id, false);
    expect(
      (await caught(sendTest(OPERATOR, { webhookId: target.webhook_id, actor: "system", sample: sampleGenerationRecord(accountId) }))).code,
    ).toBe("ERR1001");
  });
});

describe("webhook log retention", () => {
  it("purges deliveries and attempts past the plan's window, keeps newer ones and pending ones", async () => {
    const free = await createTestAccount({ plan: "free" });
    const pro = await createTestAccount({ plan: "pro" });
    await endpoint(free.accountId);
    await endpoint(pro.accountId);
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 3600_000);
    const emitFor = async (accountId: string) =>
      (await emitEvent({ accountId, event: "generation.completed", eventKey: `generation.completed:${randomUUID()}`, data: {} }))
        .created[0] as string;
    const backdate = async (deliveryId: string, status: "delivered" | "pending") => {
      await db.webhookDelivery.update({
        where: { id: deliveryId },
        data: { status, createdAt: twoDaysAgo, lastAttemptAt: twoDaysAgo, attemptCount: 1 },
      });
      await db.webhookAttempt.create({ data: { deliveryId, attemptNumber: 1, statusCode: 200, latencyMs: 5, createdAt: twoDaysAgo } });
    };

    const oldFree = await emitFor(free.accountId);
    const oldFreePending = await emitFor(free.accountId);
    const newFree = await emitFor(free.accountId);
    const oldPro = await emitFor(pro.accountId);
    await backdate(oldFree, "delivered");
    await backdate(oldFreePending, "pending");
    await backdate(oldPro, "delivered");

    // Retention by plan (server/retention) purges them; exact counts are in tests/integration/retention.
    for (const accountId of [free.accountId, pro.accountId]) await runRetention(db, accountScope(accountId), { now: new Date() });
    expect(await db.webhookDelivery.findUnique({ where: { id: oldFree } })).toBeNull();
    expect(await db.webhookAttempt.count({ where: { deliveryId: oldFree } })).toBe(0);
    // Pending: its attempt log is old and goes, the delivery itself stays until it ends.
    expect(await db.webhookDelivery.findUnique({ where: { id: oldFreePending } })).not.toBeNull();
    expect(await db.webhookAttempt.count({ where: { deliveryId: oldFreePending } })).toBe(0);
    expect(await db.webhookDelivery.findUnique({ where: { id: newFree } })).not.toBeNull();
    // Pro keeps 30 days.
    expect(await db.webhookDelivery.findUnique({ where: { id: oldPro } })).not.toBeNull();
    expect(await db.webhookAttempt.count({ where: { deliveryId: oldPro } })).toBe(1);
  });
});
