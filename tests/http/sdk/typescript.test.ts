import http from "node:http";
import type { AddressInfo } from "node:net";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/server/base/db";
import { createWebhookEndpoint } from "@/server/webhooks/create-endpoint";
import { signPayload } from "@/server/webhooks/sign";
import { inTransaction } from "@/server/base/transaction";
import { accountWithKey } from "@/tests/support/fixtures";
import { until } from "@/tests/support/until";
import { baseUrl } from "@/tests/support/http";
import {
  AuthenticationError,
  ConflictError,
  Darkroom,
  DarkroomError,
  InsufficientCreditsError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  ValidationError,
  WebhookVerificationError,
  type GenerationEvent,
  type GenerationRecord,
} from "@/sdk/typescript/src/index";

// @darkroom/client against the built app: every method once, the error families the server
// answers, a create retried after a dropped connection (one generation), wait, and webhook
// verification on real deliveries. Families the shared app cannot be made to answer (provider,
// server, spend limit) are in tests/unit/sdk/typescript-core.test.ts.

const client = (key: string, options: ConstructorParameters<typeof Darkroom>[0] = {}) =>
  new Darkroom({ apiKey: key, baseUrl: `${baseUrl()}/v1`, ...options });

async function refusal(promise: Promise<unknown>): Promise<DarkroomError> {
  const error = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  if (!(error instanceof DarkroomError)) throw new Error(`expected a DarkroomError, got ${String(error)}`);
  return error;
}

describe("every method once", () => {
  it("reads the account, the catalog and health", async () => {
    const { key, accountId, keyId } = await accountWithKey();
    const darkroom = client(key);

    const status = await darkroom.status();
    expect(status).toMatchObject({ account_id: accountId, apikey_id: keyId });
    expect(status.lastResponse.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(status.lastResponse.status).toBe(200);
    expect(JSON.stringify(status)).not.toContain("lastResponse");

    expect((await darkroom.usage({ days: 7 })).usage_period_days).toBe(7);
    const today = new Date().toISOString().slice(0, 10);
    const file = await darkroom.exportUsage({ from: today, format: "focus" });
    expect(file.filename).toBe(`darkroom-usage-focus-us-${today}-to-${today}.csv`);
    expect(file.lastResponse.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect((await file.text()).startsWith("BilledCost,EffectiveCost,")).toBe(true);
    expect(await refusal(darkroom.exportUsage({ from: "yesterday" }))).toBeInstanceOf(ValidationError);
    expect((await darkroom.account()).account_id).toBe(accountId);
    expect((await darkroom.billing()).billing_plan).toBe("pro");
    const estimate = await darkroom.estimate("darkroom/lumen-video", { count: 2, duration: 4, resolution: "720p", audio: true });
    expect(estimate).toMatchObject({ model_identifier: "darkroom/lumen-video", assets_count: 2, credit_balance_can_afford: true });

    expect((await darkroom.health.providers()).service).toBe("providers");
    expect(await darkroom.health.models()).toHaveProperty("models");
    expect(await darkroom.health.storage()).toHaveProperty("healthy");
    expect(await darkroom.health.cache()).toHaveProperty("healthy");
    const providers = await darkroom.library.providers();
    expect(providers.providers.map((provider) => provider.provider_id)).toContain("local");
    const models = await darkroom.library.models();
    expect(models.models.map((model) => model.model_identifier)).toContain("darkroom/lumen-image");
  });

  it("creates, waits, reads, lists, pages (by offset and by cursor), cancels and deletes generations", async () => {
    const { key } = await accountWithKey();
    const darkroom = client(key);

    const waited = await darkroom.generate.image(
      "darkroom/lumen-image",
      { generation_prompt: "a lighthouse", generation_output_number: 2 },
      { wait: { timeoutMs: 60_000 } },
    );
    expect(waited.generation_initialized).toBe(true);
    expect(waited.lastResponse.status).toBe(202);
    expect(waited.lastResponse.idempotencyKey).toMatch(/^sdk-/);
    expect(waited.generation_record?.generation_status).toBe("succeeded");
    expect(waited.generation_record?.generation_output_file).toHaveLength(2);
    expect(waited.generation_prediction_id === null || typeof waited.generation_prediction_id === "string").toBe(true);

    const video = await darkroom.generate.video("darkroom/lumen-video", { generation_prompt: "waves", generation_duration: 2 });
    const finished: GenerationRecord = await darkroom.generations.wait(video.generation_id, { timeoutMs: 60_000 });
    expect(finished.generation_status).toBe("succeeded");
    expect((await darkroom.generations.get(video.generation_id)).generation_id).toBe(video.generation_id);

    const slow = await darkroom.generate.image("darkroom/lumen-image", {
      generation_prompt: "hold [local:slow=20000]",
      generation_provider_order: "local",
    });
    const canceled = await darkroom.generations.cancel(slow.generation_id);
    expect(canceled).toMatchObject({ generation_id: slow.generation_id, generation_status: "canceled", credits_refunded: true });

    const page = await darkroom.generations.list({ limit: 2 });
    expect(page).toMatchObject({ total: 3, limit: 2, offset: 0, has_more: true, next_cursor: page.generations[1]?.generation_id });
    expect(page.generations).toHaveLength(2);
    const rest = await darkroom.generations.list({ limit: 2, startingAfter: page.next_cursor ?? undefined });
    expect(rest).toMatchObject({ has_more: false, next_cursor: null });
    const newestFirst = [...page.generations, ...rest.generations].map((record) => record.generation_id);
    expect(newestFirst).toEqual([slow.generation_id, video.generation_id, waited.generation_id]);
    const listed = [];
    for await (const record of darkroom.generations.listAll({ limit: 1 })) listed.push(record.generation_id);
    expect(listed).toEqual(newestFirst);
    const pages = [];
    for await (const each of darkroom.generations.pages({ limit: 2 })) pages.push(each.generations.length);
    expect(pages).toEqual([2, 1]);
    const ids = [];
    for await (const record of darkroom.generations.iterate({ limit: 1 })) ids.push(record.generation_id);
    expect(ids.sort()).toEqual([waited.generation_id, video.generation_id, slow.generation_id].sort());

    const deleted = await darkroom.generations.delete(waited.generation_id);
    expect(deleted).toEqual({ generation_id: waited.generation_id, files_deleted: 2 });
    expect((await darkroom.generations.get(waited.generation_id)).generation_removed).toBe("true");
  });

  it("sends the caller's Idempotency-Key: the same key and body replay the first 202, also after a cancel", async () => {
    const { key } = await accountWithKey();
    const darkroom = client(key);
    const idempotencyKey = `sdk-test-${randomUUID()}`;
    const body = { generation_prompt: "once [local:slow=20000]", generation_provider_order: "local" };
    const first = await darkroom.generate.image("darkroom/lumen-image", body, { idempotencyKey });
    const again = await darkroom.generate.image("darkroom/lumen-image", body, { idempotencyKey });
    expect(again.generation_id).toBe(first.generation_id);
    expect(again.lastResponse).toMatchObject({ idempotencyReplayed: true, requestId: first.lastResponse.requestId, idempotencyKey });
    // Same key, same answer (Stripe's rule): a replay after a cancel is the original 202, and the record tells the state.
    await darkroom.generations.cancel(first.generation_id);
    const afterCancel = await darkroom.generate.image("darkroom/lumen-image", body, { idempotencyKey });
    expect({ ...afterCancel }).toEqual({ ...first });
    expect(afterCancel.lastResponse).toMatchObject({ status: 202, idempotencyReplayed: true, requestId: first.lastResponse.requestId });
    expect((await darkroom.generations.get(first.generation_id)).generation_status).toBe("canceled");
  });
});

describe("error families from the server", () => {
  it("maps authentication, permission, not found, validation, conflict, insufficient credits and rate limit", async () => {
    const { key, accountId } = await accountWithKey();
    const darkroom = client(key);

    const unauthenticated = await refusal(client("dkr_0000000000000000000000000000000000000000").status());
    expect(unauthenticated).toBeInstanceOf(AuthenticationError);
    expect(unauthenticated).toMatchObject({ code: "ERR1002", type: "authentication_failed", status: 401, retryable: false });
    expect(unauthenticated.requestId).toMatch(/^[0-9a-f-]{36}$/);

    const monitor = await accountWithKey({ preset: "monitor" });
    const scope = await refusal(client(monitor.key).status());
    expect(scope).toBeInstanceOf(PermissionError);
    expect(scope).toMatchObject({ code: "ERR1003", status: 403 });
    expect(scope.details).toMatchObject({ required_scope: "account:read" });

    expect(await refusal(darkroom.generations.get(randomUUID()))).toBeInstanceOf(NotFoundError);
    const model = await refusal(darkroom.estimate("nobody/nothing"));
    expect(model).toBeInstanceOf(NotFoundError);
    expect(model.code).toBe("ERR1012");

    const invalid = await refusal(
      darkroom.generate.image("darkroom/lumen-image", { generation_prompt: "x", generation_ratio: "7:5" as "1:1" }),
    );
    expect(invalid).toBeInstanceOf(ValidationError);
    expect(invalid.code).toBe("ERR1001");
    expect(invalid.details.fields).toEqual([expect.objectContaining({ field: "generation_ratio" })]);
    expect(await refusal(darkroom.usage({ days: 91 }))).toBeInstanceOf(ValidationError);

    const done = await darkroom.generate.image("darkroom/lumen-image", { generation_prompt: "quick" }, { wait: true });
    const notCancelable = await refusal(darkroom.generations.cancel(done.generation_id));
    expect(notCancelable).toBeInstanceOf(ConflictError);
    expect(notCancelable.code).toBe("ERR1010");

    const poor = await refusal(darkroom.generate.video("google/veo-3", { generation_prompt: "x", generation_duration: 8 }));
    expect(poor).toBeInstanceOf(InsufficientCreditsError);
    expect(poor).toMatchObject({ code: "ERR1004", status: 402, retryable: false });
    expect(await db.generation.count({ where: { accountId, modelIdentifier: "google/veo-3" } })).toBe(0);

    const free = await accountWithKey({ plan: "free" });
    const freeClient = client(free.key, { maxRetries: 0 });
    const hold = { generation_prompt: "hold [local:slow=20000]", generation_provider_order: "local" };
    const held = [
      await freeClient.generate.image("darkroom/lumen-image", hold),
      await freeClient.generate.image("darkroom/lumen-image", hold),
    ];
    const capped = await refusal(freeClient.generate.image("darkroom/lumen-image", hold));
    expect(capped).toBeInstanceOf(RateLimitError);
    expect(capped).toMatchObject({ code: "ERR1009", status: 429, retryable: true });
    expect((capped as RateLimitError).retryAfterSeconds).toBeGreaterThanOrEqual(1);
    for (const generation of held) await freeClient.generations.cancel(generation.generation_id);
  });
});

describe("retries", () => {
  it("a create whose answer is lost is retried with the same Idempotency-Key and starts one generation", async () => {
    const { key, accountId } = await accountWithKey();
    const target = new URL(baseUrl());
    let creates = 0;
    // A proxy that forwards every request but drops the connection instead of returning the first create's answer.
    const proxy = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        const isCreate = req.method === "POST" && (req.url ?? "").startsWith("/v1/generate/");
        if (isCreate) creates++;
        const dropThis = isCreate && creates === 1;
        const upstream = http.request(
          { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
          (answer) => {
            const body: Buffer[] = [];
            answer.on("data", (chunk: Buffer) => body.push(chunk));
            answer.on("end", () => {
              if (dropThis) return req.socket.destroy();
              res.writeHead(answer.statusCode ?? 502, answer.headers).end(Buffer.concat(body));
            });
          },
        );
        upstream.end(Buffer.concat(chunks));
      });
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    try {
      const darkroom = new Darkroom({
        apiKey: key,
        baseUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/v1`,
        maxRetries: 2,
      });
      const created = await darkroom.generate.image("darkroom/lumen-image", { generation_prompt: "exactly once" });
      expect(creates).toBe(2);
      expect(created.lastResponse).toMatchObject({ attempts: 2, idempotencyReplayed: true });
      expect(await db.generation.count({ where: { accountId } })).toBe(1);
      expect((await db.generation.findFirstOrThrow({ where: { accountId } })).id).toBe(created.generation_id);
    } finally {
      proxy.closeAllConnections();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    }
  });
});

describe("webhooks.verify on real deliveries", () => {
  type Arrival = { headers: http.IncomingHttpHeaders; rawBody: string };
  let receiver: http.Server;
  const arrivals: Arrival[] = [];

  beforeAll(async () => {
    receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        arrivals.push({ headers: req.headers, rawBody: Buffer.concat(chunks).toString("utf8") });
        res.writeHead(200).end("ok");
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  });

  afterAll(async () => {
    receiver.closeAllConnections();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  });

  it("accepts a delivery as sent, refuses it tampered, stale or under another secret, and tries every v1 entry", async () => {
    const { key, accountId } = await accountWithKey();
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/${accountId}`;
    const endpoint = await inTransaction((tx) =>
      createWebhookEndpoint(tx, { accountId, url, events: ["generation.completed"], actor: "system" }),
    );
    const darkroom = client(key);
    const created = await darkroom.generate.image("darkroom/lumen-image", { generation_prompt: "signed" }, { wait: true });

    const arrival = await until(
      () => arrivals.find((each) => each.rawBody.includes(created.generation_id)),
      "the generation.completed delivery arrived",
    );

    const event = await darkroom.webhooks.verify(arrival.rawBody, arrival.headers as Record<string, string>, endpoint.secret);
    expect(event.webhook_event).toBe("generation.completed");
    expect(event.webhook_data.generation_id).toBe(created.generation_id);
    // A Fetch Headers object and raw bytes work too.
    const headers = new Headers({ "X-Service-Signature": arrival.headers["x-service-signature"] as string });
    expect((await darkroom.webhooks.verify(new TextEncoder().encode(arrival.rawBody), headers, endpoint.secret)).webhook_delivery_id).toBe(
      event.webhook_delivery_id,
    );

    const reasonOf = (promise: Promise<unknown>) =>
      promise.then(
        () => "accepted",
        (error: unknown) => (error instanceof WebhookVerificationError ? error.reason : String(error)),
      );
    const header = arrival.headers["x-service-signature"] as string;
    expect(
      await reasonOf(
        darkroom.webhooks.verify(arrival.rawBody.replace("succeeded", "failed"), { "x-service-signature": header }, endpoint.secret),
      ),
    ).toBe("signature_mismatch");
    expect(await reasonOf(darkroom.webhooks.verify(arrival.rawBody, { "x-service-signature": header }, "whsec_not_the_secret"))).toBe(
      "signature_mismatch",
    );
    expect(
      await reasonOf(
        darkroom.webhooks.verify(arrival.rawBody, { "x-service-signature": header }, endpoint.secret, { now: Date.now() + 301_000 }),
      ),
    ).toBe("timestamp_out_of_tolerance");
    expect(await reasonOf(darkroom.webhooks.verify(arrival.rawBody, {}, endpoint.secret))).toBe("malformed_header");

    // A rotated secret: the header carries a signature under the old secret and one under the new.
    const now = Math.floor(Date.now() / 1000);
    const oldSigned = signPayload("whsec_old", now, arrival.rawBody);
    const newSigned = signPayload(endpoint.secret, now, arrival.rawBody).split(",")[1];
    expect(await reasonOf(darkroom.webhooks.verify(arrival.rawBody, `${oldSigned},${newSigned}`, endpoint.secret))).toBe("accepted");
  });
});

describe("streams against the app (issue #31)", () => {
  const names = (events: GenerationEvent[]) => events.map((event) => event.event);
  const slow = { generation_prompt: "live [local:slow=3000]", generation_provider_order: "local" };

  async function streamed(darkroom: Darkroom, id: string, lastEventId?: string) {
    const events: GenerationEvent[] = [];
    for await (const event of darkroom.generations.stream(id, { lastEventId })) events.push(event);
    return events;
  }

  it("generations.stream: snapshot, the chain, the terminal event, then the end; resuming sends what came after", async () => {
    const { key } = await accountWithKey();
    const darkroom = client(key);
    const created = await darkroom.generate.image("darkroom/lumen-image", slow);
    const events = await streamed(darkroom, created.generation_id);
    expect(events[0]?.event).toBe("generation.snapshot");
    expect(events.at(-1)?.event).toBe("generation.completed");
    expect((events.at(-1)?.data as GenerationRecord).generation_status).toBe("succeeded");
    expect(names(events)).toContain("generation.attempt");
    // Ids are opaque: compared for equality only, never twice.
    const ids = events.map((event) => event.id).filter((id) => id !== null);
    expect(new Set(ids).size).toBe(ids.length);

    // Resumed: what came after, each once; a resume snapshot, if any, has none of the ids seen.
    const from = events[1] as GenerationEvent;
    const resumed = await streamed(darkroom, created.generation_id, from.id ?? undefined);
    const changes = (list: GenerationEvent[]) => list.filter((event) => event.event !== "generation.snapshot");
    expect(changes(resumed).map((event) => [event.id, event.event])).toEqual(
      changes(events.slice(2)).map((event) => [event.id, event.event]),
    );
    expect(resumed.filter((event) => event.id !== null && events.slice(0, 2).some((seen) => seen.id === event.id))).toEqual([]);
    // Resumed after its terminal event: at most a snapshot (with no id seen), and the stream ends.
    const after = await streamed(darkroom, created.generation_id, events.at(-1)?.id ?? undefined);
    expect(names(after).filter((name) => name !== "generation.snapshot")).toEqual([]);
    expect(after.filter((event) => event.id !== null && ids.includes(event.id))).toEqual([]);
  });

  it("events.stream: every event of the account after lastEventId, in order, and a resume from any of them", async () => {
    const { key } = await accountWithKey();
    const darkroom = client(key);
    const first = await darkroom.generate.image("darkroom/lumen-image", { generation_prompt: "before" });
    const before = await streamed(darkroom, first.generation_id);
    const mark = before.at(-1)?.id as string;
    const second = await darkroom.generate.image("darkroom/lumen-image", { generation_prompt: "after" });

    const seen: GenerationEvent[] = [];
    for await (const event of darkroom.events.stream({ lastEventId: mark })) {
      seen.push(event);
      if (event.event === "generation.completed" && (event.data as GenerationRecord).generation_id === second.generation_id) break;
    }
    expect(seen[0]).toMatchObject({ event: "generation.created" });
    expect((seen[0]?.data as GenerationRecord).generation_id).toBe(second.generation_id);
    expect(seen.every((event) => (event.data as GenerationRecord).generation_id === second.generation_id)).toBe(true);

    const again: GenerationEvent[] = [];
    for await (const event of darkroom.events.stream({ lastEventId: seen[0]?.id ?? undefined })) {
      again.push(event);
      if (again.length === seen.length - 1) break;
    }
    expect(again.map((event) => event.id)).toEqual(seen.slice(1).map((event) => event.id));
  });

  it("a stream cut by a proxy is resumed with Last-Event-ID: no event lost, none repeated", async () => {
    const { key } = await accountWithKey();
    const target = new URL(baseUrl());
    const lastEventIds: Array<string | undefined> = [];
    let streams = 0;
    // Forwards as it arrives; the first stream is cut once its second event has reached the client.
    const proxy = http.createServer((req, res) => {
      const isStream = (req.url ?? "").endsWith("/events");
      if (isStream) lastEventIds.push(req.headers["last-event-id"] as string | undefined);
      const cutThis = isStream && ++streams === 1;
      const upstream = http.request(
        { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          let text = "";
          let cut = false;
          answer.on("data", (chunk: Buffer) => {
            if (!cutThis) return void res.write(chunk);
            // Past the cut nothing more goes out (a chunk can still arrive before the socket is gone).
            if (cut) return;
            const sent = text.length;
            text += chunk.toString("utf8");
            // Complete events only (their blank line arrived): a chunk can end inside the second one,
            // or carry the third as well, which must not reach the client.
            const complete = [...text.matchAll(/^event: .*\n(?:.+\n)*\n/gm)];
            const second = complete[1];
            if (!second) return void res.write(chunk);
            // Cut once the second event has left for the client: destroyed at once, the socket could
            // drop what was just written, and the client would resume without it.
            cut = true;
            answer.destroy();
            res.write(text.slice(sent, (second.index ?? 0) + second[0].length), () => req.socket.destroy());
          });
          answer.on("end", () => res.end());
        },
      );
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    try {
      const direct = client(key);
      const created = await direct.generate.image("darkroom/lumen-image", slow);
      const viaProxy = new Darkroom({ apiKey: key, baseUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/v1` });
      const events = await streamed(viaProxy, created.generation_id);
      expect(streams).toBe(2);
      expect(lastEventIds[0]).toBeUndefined();
      expect(lastEventIds[1]).toBe(events[1]?.id);
      // No id handed out twice, the snapshots' included (a resume snapshot once repeated the cursor's).
      const handedOut = events.map((event) => event.id).filter((id) => id !== null);
      expect(new Set(handedOut).size).toBe(handedOut.length);
      const changes = events.filter((event) => event.event !== "generation.snapshot");
      expect(new Set(changes.map((event) => event.id)).size).toBe(changes.length);
      const reference = (await streamed(direct, created.generation_id, events[0]?.id ?? undefined)).filter(
        (event) => event.event !== "generation.snapshot",
      );
      expect(changes.map((event) => event.id)).toEqual(reference.map((event) => event.id));
      expect(changes.at(-1)?.event).toBe("generation.completed");
    } finally {
      proxy.closeAllConnections();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    }
  });

  it("generations.wait and generate with wait read the stream, without polling", async () => {
    const { key } = await accountWithKey();
    const darkroom = client(key);
    const polls: string[] = [];
    (darkroom.generations as unknown as { get: (id: string) => Promise<never> }).get = async (id) => {
      polls.push(id);
      throw new Error("polled");
    };
    const created = await darkroom.generate.image("darkroom/lumen-image", slow);
    expect((await darkroom.generations.wait(created.generation_id, { timeoutMs: 60_000 })).generation_status).toBe("succeeded");
    const waited = await darkroom.generate.video(
      "darkroom/lumen-video",
      { generation_prompt: "waves", generation_duration: 2 },
      { wait: true },
    );
    expect(waited.generation_record?.generation_status).toBe("succeeded");
    expect(waited.generation_record?.generation_output_file).toHaveLength(1);
    expect(polls).toEqual([]);
  });
});

afterAll(async () => {
  await disconnectDb();
});
