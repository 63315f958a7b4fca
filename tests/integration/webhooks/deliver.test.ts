import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import https from "node:https";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { OPERATOR } from "@/server/base/account-scope";
import { db, disconnectDb } from "@/server/base/db";
import { registerExecutor, unregisterExecutor } from "@/server/base/events/executor-registry";
import { attemptDelivery } from "@/server/jobs/functions/webhook-delivery";
import type { Resolver } from "@/server/base/net/resolve-and-check";
import { createWebhookEndpoint } from "@/server/webhooks/create-endpoint";
import { queueWebhookEvent } from "@/server/webhooks/emit-webhook-event";
import { rollWebhookSecret } from "@/server/webhooks/roll-secret";
import { verifySignature } from "@/server/webhooks/sign";
import { updateWebhookEndpoint } from "@/server/webhooks/update-endpoint";
import { createTestAccount } from "@/tests/support/fixtures";
import { recordingEventSink } from "@/tests/support/event-sink";
import { inTransaction } from "@/server/base/transaction";

// One delivery attempt (the delivery step's attemptDelivery) against a real HTTPS receiver on 127.0.0.1 with a
// self-signed certificate made by openssl for this run and trusted through safeFetch's `ca`.
// Loopback targets are allowed by the development setting (WEBHOOK_ALLOW_LOOPBACK=1, as npm test
// sets it). The queued events go to a sink in this process, so the running app stays out of it.

type Received = { path: string; headers: Record<string, string | string[] | undefined>; rawBody: string };

const { sink } = recordingEventSink();
let server: https.Server;
let port = 0;
let cert = "";
let tempDir = "";
let received: Received[] = [];

const routes: Record<string, (res: import("node:http").ServerResponse) => void> = {
  "/ok": (res) => res.writeHead(200, { "content-type": "text/plain" }).end("thanks"),
  "/accepted": (res) => res.writeHead(202).end(),
  "/broken": (res) => res.writeHead(500, { "content-type": "text/plain" }).end("ü".repeat(3000)),
  "/moved": (res) => res.writeHead(302, { location: "/ok" }).end("see /ok"),
  "/slow": (res) => void setTimeout(() => !res.destroyed && res.writeHead(200).end("late"), 20_000).unref(),
};

const url = (route: string) => `https://127.0.0.1:${port}${route}`;

async function deliveryTo(route: string, options: { url?: string; resolver?: Resolver } = {}) {
  const { accountId } = await createTestAccount();
  const endpoint = await inTransaction((tx) =>
    createWebhookEndpoint(tx, {
      accountId,
      url: options.url ?? url(route),
      events: ["generation.completed"],
      actor: "system",
      network: options.resolver ? { resolver: options.resolver } : {},
    }),
  );
  const data = { generation_id: randomUUID(), generation_status: "succeeded", note: "naïve ✓" };
  const queued = await inTransaction((tx) =>
    queueWebhookEvent(tx, { accountId, event: "generation.completed", eventKey: `generation.completed:${data.generation_id}`, data }),
  );
  return { accountId, endpoint, data, deliveryId: queued.created[0] as string };
}

beforeAll(async () => {
  registerExecutor(sink);
  tempDir = fs.mkdtempSync(path.join(os.tmpdir(), "darkroom-webhook-tls-"));
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:prime256v1",
      "-nodes",
      "-days",
      "1",
      "-subj",
      "/CN=localhost",
      "-addext",
      "subjectAltName=IP:127.0.0.1",
      "-keyout",
      path.join(tempDir, "key.pem"),
      "-out",
      path.join(tempDir, "cert.pem"),
    ],
    { stdio: "ignore" },
  );
  cert = fs.readFileSync(path.join(tempDir, "cert.pem"), "utf8");
  server = https.createServer({ key: fs.readFileSync(path.join(tempDir, "key.pem")), cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      received.push({ path: req.url ?? "/", headers: req.headers, rawBody: Buffer.concat(chunks).toString("utf8") });
      (routes[req.url ?? ""] ?? ((r) => r.writeHead(404).end()))(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  unregisterExecutor(sink);
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  fs.rmSync(tempDir, { recursive: true, force: true });
  await disconnectDb();
});

beforeEach(() => {
  received = [];
});

describe("attemptDelivery over HTTPS", () => {
  it("POSTs the signed body with the documented headers; 2xx marks it delivered and logs the attempt", async () => {
    const { endpoint, data, deliveryId } = await deliveryTo("/ok");
    const before = Date.now();
    const result = await attemptDelivery({ deliveryId, attemptNumber: 1 }, { ca: cert });
    expect(result).toMatchObject({ outcome: "delivered", attemptNumber: 1, statusCode: 200 });

    expect(received).toHaveLength(1);
    const [request] = received as [Received];
    expect(request.path).toBe("/ok");
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.headers["user-agent"]).toBe("Darkroom-Webhooks/1");
    expect(request.headers["x-service-event"]).toBe("generation.completed");
    expect(request.headers["x-service-delivery-id"]).toBe(deliveryId);
    const timestamp = Number(request.headers["x-service-timestamp"]);
    expect(timestamp).toBeGreaterThanOrEqual(Math.floor(before / 1000));
    expect(request.headers["x-service-signature"]).toMatch(new RegExp(`^t=${timestamp},v1=[0-9a-f]{64}$`));
    expect(verifySignature(request.headers["x-service-signature"] as string, endpoint.secret, request.rawBody)).toEqual({
      valid: true,
      timestamp,
    });
    expect(
      verifySignature(request.headers["x-service-signature"] as string, endpoint.secret, request.rawBody.replace("naïve", "naive")).valid,
    ).toBe(false);
    expect(Object.keys(JSON.parse(request.rawBody))).toEqual(["webhook_event", "webhook_timestamp", "webhook_delivery_id", "webhook_data"]);
    expect(JSON.parse(request.rawBody)).toEqual({
      webhook_event: "generation.completed",
      webhook_timestamp: expect.any(String),
      webhook_delivery_id: deliveryId,
      webhook_data: data,
    });

    const delivery = await db.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId }, include: { attempts: true } });
    expect(delivery).toMatchObject({ status: "delivered", attemptCount: 1 });
    expect(delivery.deliveredAt).toBeInstanceOf(Date);
    expect(delivery.attempts).toEqual([
      expect.objectContaining({ attemptNumber: 1, statusCode: 200, responseSnippet: "thanks", error: null }),
    ]);
    expect(delivery.attempts[0]!.latencyMs).toBeGreaterThanOrEqual(0);

    expect(await attemptDelivery({ deliveryId, attemptNumber: 2 }, { ca: cert })).toEqual({
      outcome: "skipped",
      reason: "already_delivered",
    });
    expect(received).toHaveLength(1);
  });

  it("counts any 2xx as delivered", async () => {
    const { deliveryId } = await deliveryTo("/accepted");
    expect(await attemptDelivery({ deliveryId, attemptNumber: 1 }, { ca: cert })).toMatchObject({ outcome: "delivered", statusCode: 202 });
  });

  it("fails on a certificate it does not trust (the self-signed one without `ca`)", async () => {
    const { deliveryId } = await deliveryTo("/ok");
    const result = await attemptDelivery({ deliveryId, attemptNumber: 1 });
    expect(result).toMatchObject({ outcome: "failed", statusCode: null });
    expect(result.outcome === "failed" && result.error).toMatch(/certificate/i);
    expect(received).toHaveLength(0);
    const attempt = await db.webhookAttempt.findFirstOrThrow({ where: { deliveryId } });
    expect(attempt).toMatchObject({ attemptNumber: 1, statusCode: null, responseSnippet: null });
    expect(attempt.error).toMatch(/certificate/i);
    expect((await db.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } })).status).toBe("pending");
  });

  it("does not follow a 302: a failed attempt, the target never asked", async () => {
    const { deliveryId } = await deliveryTo("/moved");
    const result = await attemptDelivery({ deliveryId, attemptNumber: 1 }, { ca: cert });
    expect(result).toMatchObject({ outcome: "failed", statusCode: 302 });
    expect(result.outcome === "failed" && result.error).toContain("Redirect (HTTP 302 to /ok) not followed");
    expect(received.map((request) => request.path)).toEqual(["/moved"]);
  });

  it("logs a 500 with at most 1 KB of the answer", async () => {
    const { deliveryId } = await deliveryTo("/broken");
    expect(await attemptDelivery({ deliveryId, attemptNumber: 3 }, { ca: cert })).toMatchObject({
      outcome: "failed",
      statusCode: 500,
      error: "HTTP 500",
      attemptNumber: 3,
    });
    const attempt = await db.webhookAttempt.findFirstOrThrow({ where: { deliveryId } });
    expect(attempt).toMatchObject({ attemptNumber: 3, statusCode: 500, error: "HTTP 500" });
    expect(Buffer.byteLength(attempt.responseSnippet as string)).toBe(1024);
    expect((await db.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } })).attemptCount).toBe(3);
  });

  it("gives up on a receiver slower than the timeout", async () => {
    const { deliveryId } = await deliveryTo("/slow");
    // The receiver would answer after 20 s: only the timeout can fail the attempt with a FetchTimeout.
    const result = await attemptDelivery({ deliveryId, attemptNumber: 1 }, { ca: cert, timeoutMs: 300 });
    expect(result).toMatchObject({ outcome: "failed", statusCode: null });
    expect(result.outcome === "failed" && result.error).toContain("FetchTimeout");
  });

  it("re-checks the destination at delivery: a name that now resolves to a private address is refused before connecting", async () => {
    let answer = "127.0.0.1";
    const rebinding: Resolver = async () => [{ address: answer, family: 4 }];
    const { deliveryId } = await deliveryTo("/ok", { url: `https://hooks.rebind.test:${port}/ok`, resolver: rebinding });
    answer = "10.0.0.7";
    const result = await attemptDelivery({ deliveryId, attemptNumber: 1 }, { ca: cert, resolver: rebinding });
    expect(result).toMatchObject({ outcome: "failed", statusCode: null });
    expect(result.outcome === "failed" && result.error).toContain(
      "DestinationRefused: the host hooks.rebind.test resolves to a private address",
    );
    // The delivery log shows the rule, never what the name resolved to.
    expect(result.outcome === "failed" && result.error).not.toContain("10.0.0.7");
    expect(received).toHaveLength(0);
  });

  it("signs with the current secret after a roll", async () => {
    const { endpoint, deliveryId } = await deliveryTo("/ok");
    const rolled = await inTransaction((tx) => rollWebhookSecret(tx, OPERATOR, { webhookId: endpoint.webhook_id, actor: "system" }));
    await attemptDelivery({ deliveryId, attemptNumber: 1 }, { ca: cert });
    const [request] = received as [Received];
    expect(verifySignature(request.headers["x-service-signature"] as string, rolled.secret, request.rawBody).valid).toBe(true);
    expect(verifySignature(request.headers["x-service-signature"] as string, endpoint.secret, request.rawBody).valid).toBe(false);
  });

  it("turns a delivery whose endpoint was disabled meanwhile into a dead letter, sending nothing", async () => {
    const { endpoint, deliveryId } = await deliveryTo("/ok");
    await inTransaction((tx) => updateWebhookEndpoint(tx, OPERATOR, { webhookId: endpoint.webhook_id, enabled: false, actor: "system" }));
    expect(await attemptDelivery({ deliveryId, attemptNumber: 1 }, { ca: cert })).toEqual({
      outcome: "skipped",
      reason: "endpoint_disabled",
    });
    expect(received).toHaveLength(0);
    const delivery = await db.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } });
    expect(delivery.status).toBe("failed");
    expect(await db.deadLetter.findFirst({ where: { endpointId: endpoint.webhook_id, eventKey: delivery.eventKey } })).toMatchObject({
      reason: "endpoint_disabled",
      replayedAt: null,
    });
  });

  it("skips a delivery that does not exist", async () => {
    expect(await attemptDelivery({ deliveryId: randomUUID(), attemptNumber: 1 })).toEqual({ outcome: "skipped", reason: "not_found" });
  });
});
