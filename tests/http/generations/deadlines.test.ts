import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/server/base/db";
import { getGeneration } from "@/server/edge/http/operations/generations";
import { inTransaction } from "@/server/base/transaction";
import { createWebhookEndpoint } from "@/server/webhooks/create-endpoint";
import { startWebhookReceiver, type WebhookReceiver } from "@/tests/fakes/webhook-receiver";
import { accountWithKey } from "@/tests/support/fixtures";
import { balanceOf, cancel, createImage, createVideo, ledgerOf, waitForStatus } from "@/tests/support/generations";
import { callOperation, expectError, expectSuccess, invalidFields } from "@/tests/support/http";

// Cancel-After on the create routes (issue #30 §2): a deadline from the generation's creation;
// unfinished then, the generation is canceled with ERR4006, refunded in full, never charged, and
// generation.canceled says reason "deadline". Timing is asserted on the recorded timestamps.

let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
});

afterAll(async () => {
  await receiver.close();
  await disconnectDb();
});

const ms = (iso: string | null | undefined) => Date.parse(iso ?? "");

describe("the Cancel-After header", () => {
  it.each([
    ["image", createImage, {}],
    ["video", createVideo, { generation_duration: 4 }],
  ] as const)("on the %s create route: its deadline is in the record, from the creation", async (_kind, create, extra) => {
    const { key } = await accountWithKey();
    const created = expectSuccess(await create(key, { generation_prompt: "with a deadline", ...extra }, { "cancel-after": "1h30m" }), 202);
    const record = expectSuccess(await callOperation(getGeneration, { key, params: { generation_id: created.generation_id } }));
    expect(ms(record.generation_deadline_at) - ms(record.generation_created_at)).toBe(5_400_000);
    // Finished well before it: the deadline stays in the record, and nothing else changes.
    const done = await waitForStatus(key, created.generation_id);
    expect(done).toMatchObject({ generation_status: "succeeded", generation_deadline_at: record.generation_deadline_at });
    expect(done).not.toHaveProperty("generation_error_code");
  });

  it("leaves generation_deadline_at null without the header", async () => {
    const { key } = await accountWithKey();
    const created = expectSuccess(await createImage(key, { generation_prompt: "no deadline" }), 202);
    const record = expectSuccess(await callOperation(getGeneration, { key, params: { generation_id: created.generation_id } }));
    expect(record.generation_deadline_at).toBeNull();
  });

  it.each([
    ["image", createImage, {}],
    ["video", createVideo, { generation_duration: 4 }],
  ] as const)(
    "refuses a bad value on the %s route with ERR1001 naming the header, before any reservation",
    async (_kind, create, extra) => {
      const { key, accountId } = await accountWithKey();
      for (const value of ["soon", "90", "4s", "25h", "1.5m", "30s1m", "-5s"]) {
        const error = expectError(
          await create(key, { generation_prompt: "never reserved", ...extra }, { "cancel-after": value }),
          "ERR1001",
        );
        expect(invalidFields(error), value).toEqual(["Cancel-After"]);
      }
      expect(await db.generation.count({ where: { accountId } })).toBe(0);
      expect(await db.ledgerEntry.count({ where: { accountId, type: "reserve" } })).toBe(0);
      expect(await balanceOf(accountId)).toBe(1);
    },
  );

  it("is part of what an Idempotency-Key is bound to, as the duration it means", async () => {
    const { key } = await accountWithKey();
    const body = { generation_prompt: "idempotent deadline" };
    const idempotencyKey = `deadline-${randomUUID()}`;
    const first = await createImage(key, body, { "idempotency-key": idempotencyKey, "cancel-after": "90s" });
    const created = expectSuccess(first, 202);
    // The same deadline, however it is written: the stored answer.
    for (const value of ["90s", "1m30s", "90000ms"]) {
      const again = await createImage(key, body, { "idempotency-key": idempotencyKey, "cancel-after": value });
      expect(expectSuccess(again, 202).generation_id, value).toBe(created.generation_id);
      expect(again.headers.get("idempotency-replayed")).toBe("true");
    }
    // Another deadline, or none, is another request.
    expectError(await createImage(key, body, { "idempotency-key": idempotencyKey, "cancel-after": "2m" }), "ERR2015");
    expectError(await createImage(key, body, { "idempotency-key": idempotencyKey }), "ERR2015");
    // A key first used without the header is bound as before the header existed.
    const plainKey = `plain-${randomUUID()}`;
    const plain = expectSuccess(await createImage(key, body, { "idempotency-key": plainKey }), 202);
    expect(expectSuccess(await createImage(key, body, { "idempotency-key": plainKey }), 202).generation_id).toBe(plain.generation_id);
    expectError(await createImage(key, body, { "idempotency-key": plainKey, "cancel-after": "90s" }), "ERR2015");
  });
});

describe("a deadline that passes before the generation finishes", () => {
  it("cancels a 30 s job at 5 s: ERR4006, refunded, never charged, one generation.canceled with reason deadline", async () => {
    const { key, accountId } = await accountWithKey();
    const path = `/hook/${randomUUID()}`;
    await inTransaction((tx) =>
      createWebhookEndpoint(tx, {
        accountId,
        url: receiver.url.replace("/api/providers/callback", path),
        events: ["generation.canceled", "generation.completed"],
        actor: "system",
      }),
    );

    const body = { generation_prompt: "thirty seconds [local:slow=30000]", generation_provider_order: "local" };
    const created = expectSuccess(await createImage(key, body, { "cancel-after": "5s" }), 202);
    const record = await waitForStatus(key, created.generation_id, ["succeeded", "failed", "canceled"], 25_000);

    expect(record).toMatchObject({ generation_status: "canceled", generation_error_code: "ERR4006", generation_output_file: [] });
    expect(record.generation_error).toMatch(/deadline/i);
    const created_ms = ms(record.generation_created_at);
    const deadline_ms = ms(record.generation_deadline_at);
    const canceled_ms = ms(record.generation_completed_at);
    expect(deadline_ms - created_ms).toBe(5_000);
    // Never before the deadline, as recorded; canceled by it (ERR4006 above), not by the 30 s job's end.
    expect(canceled_ms - created_ms).toBeGreaterThanOrEqual(5_000);
    console.info(`deadline lateness (canceled − deadline): ${canceled_ms - deadline_ms} ms`);

    expect(await ledgerOf(created.generation_id)).toEqual(["reserve:0.002", "refund:0.002"]);
    expect(await balanceOf(accountId)).toBe(1);
    const attempts = await db.providerAttempt.findMany({ where: { generationId: created.generation_id } });
    expect(attempts.map((attempt) => attempt.outcome)).toEqual(["canceled"]);

    const delivery = await receiver.next((webhook) => webhook.path === path, 20_000);
    const event = JSON.parse(delivery.rawBody);
    expect(event.webhook_event).toBe("generation.canceled");
    expect(event.webhook_data).toMatchObject({
      generation_id: created.generation_id,
      generation_status: "canceled",
      generation_error_code: "ERR4006",
      generation_deadline_at: record.generation_deadline_at,
      reason: "deadline",
      credits_refunded: true,
      credits_refunded_amount: 0.002,
    });
    // One terminal event, made once: the deliveries the service made for this generation.
    const deliveries = await db.webhookDelivery.findMany({ where: { accountId }, select: { event: true, eventKey: true } });
    expect(deliveries).toEqual([{ event: "generation.canceled", eventKey: `generation.canceled:${created.generation_id}` }]);
    // Too late to cancel by hand: it is canceled already.
    expectError(await cancel(key, created.generation_id), "ERR1010");
  }, 60_000);

  it("tells a client's own cancel apart: reason user, no error code", async () => {
    const { key, accountId } = await accountWithKey();
    const path = `/hook/${randomUUID()}`;
    await inTransaction((tx) =>
      createWebhookEndpoint(tx, {
        accountId,
        url: receiver.url.replace("/api/providers/callback", path),
        events: ["generation.canceled"],
        actor: "system",
      }),
    );
    const created = expectSuccess(
      await createImage(
        key,
        { generation_prompt: "user cancel [local:slow=5000]", generation_provider_order: "local" },
        { "cancel-after": "1m" },
      ),
      202,
    );
    await waitForStatus(key, created.generation_id, ["processing"]);
    expectSuccess(await cancel(key, created.generation_id));
    const event = JSON.parse((await receiver.next((webhook) => webhook.path === path, 20_000)).rawBody);
    expect(event.webhook_data).toMatchObject({ generation_status: "canceled", reason: "user" });
    expect(event.webhook_data).not.toHaveProperty("generation_error_code");
  }, 40_000);
});
