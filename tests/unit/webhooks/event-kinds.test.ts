import { describe, expect, it } from "vitest";
import { ApiError } from "@/server/base/error-table";
import { defaultWebhookEvents, optInWebhookEvents, parseWebhookEvents, webhookEventKinds } from "@/server/webhooks/event-kinds";
import { responseSnippet } from "@/server/webhooks/deliver";
import { serializeWebhookBody } from "@/server/webhooks/webhook-body";

describe("webhook event subscriptions", () => {
  it("knows the ten events; new endpoints get the published ones, later kinds are opt-in", () => {
    expect(webhookEventKinds).toEqual([
      "generation.started",
      "generation.completed",
      "generation.failed",
      "generation.canceled",
      "credits.low_balance",
      "apikey.spend_alert",
      "account.spend_alert",
      "credits.auto_top_up_succeeded",
      "credits.auto_top_up_failed",
      "webhook.test",
    ]);
    expect(defaultWebhookEvents).toEqual([
      "generation.started",
      "generation.completed",
      "generation.failed",
      "generation.canceled",
      "credits.low_balance",
    ]);
    expect(optInWebhookEvents).toEqual([
      "apikey.spend_alert",
      "account.spend_alert",
      "credits.auto_top_up_succeeded",
      "credits.auto_top_up_failed",
    ]);
    expect(parseWebhookEvents(undefined)).toEqual(defaultWebhookEvents);
  });

  it("keeps a subset in canonical order, without repeats", () => {
    expect(parseWebhookEvents(["webhook.test", "generation.completed", "generation.completed"])).toEqual([
      "generation.completed",
      "webhook.test",
    ]);
  });

  it("refuses unknown events and an empty list with ERR1001", () => {
    for (const bad of [["generation.done"], [], ["credits.low_balance", "*"]]) {
      const error = (() => {
        try {
          parseWebhookEvents(bad);
        } catch (caught) {
          return caught;
        }
      })();
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).code).toBe("ERR1001");
    }
  });
});

describe("delivery bodies", () => {
  it("serializes in the documented key order whatever order the stored JSON has", () => {
    const raw = serializeWebhookBody({
      webhook_data: { a: 1 },
      webhook_delivery_id: "d",
      webhook_timestamp: "2026-01-01T00:00:00.000Z",
      webhook_event: "webhook.test",
    } as never);
    expect(raw).toBe(
      '{"webhook_event":"webhook.test","webhook_timestamp":"2026-01-01T00:00:00.000Z","webhook_delivery_id":"d","webhook_data":{"a":1}}',
    );
  });

  it("keeps at most 1 KB of the response, never a broken character", () => {
    expect(responseSnippet(Buffer.alloc(0))).toBeNull();
    expect(responseSnippet(Buffer.from("ok"))).toBe("ok");
    const long = responseSnippet(Buffer.from("é".repeat(2000)));
    expect(Buffer.byteLength(long as string)).toBe(1024);
    const odd = responseSnippet(Buffer.from(`x${"é".repeat(2000)}`));
    expect(Buffer.byteLength(odd as string)).toBeLessThanOrEqual(1024);
    expect(odd).not.toContain("\uFFFD");
  });
});
