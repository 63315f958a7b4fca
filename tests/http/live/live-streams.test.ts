import { describe, expect, it } from "vitest";
import { db } from "@/server/base/db";
import { OPERATOR } from "@/server/base/account-scope";
import { revokeApiKey } from "@/server/keys/revoke-key";
import { inTransaction } from "@/server/base/transaction";
import { accountWithKey, createTestKey } from "@/tests/support/fixtures";
import { until } from "@/tests/support/until";
import { createImage, createVideo, seedFinishedImage, someoneElsesGeneration } from "@/tests/support/generations";
import { api, expectError, expectSuccess, type ApiReply } from "@/tests/support/http";
import { ofGeneration, openSse, type SseEvent, type SseStream } from "@/tests/support/sse-client";

// The live streams (issue #31) read with a plain SSE client against the built app: the
// per-generation stream (snapshot, the failover chain, the terminal event, then the end), the
// account stream, resuming with Last-Event-ID, envelope errors before a stream starts, the
// per-plan cap, a revoked key, and the request log.

const asReply = (stream: SseStream): ApiReply => ({ status: stream.status, headers: stream.headers, body: stream.body });
const names = (events: SseEvent[]) => events.map((event) => event.event);
const attemptsOf = (events: SseEvent[]) =>
  events.filter((event) => event.event === "generation.attempt").map((event) => event.data as Record<string, unknown>);

async function created(key: string, body: Record<string, unknown> = { generation_prompt: "a live lighthouse" }) {
  return expectSuccess(await createImage(key, body), 202).generation_id;
}

describe("GET /v1/content/{generation_id}/events", () => {
  it("sends the snapshot, the failover chain as it happens and the terminal event, then ends", async () => {
    const { key } = await accountWithKey();
    // The generation may finish before a stream opens; one opened from its generation.created
    // (as a client resuming from there) is sent everything after it all the same.
    const account = await openSse("/v1/content/events", { key });
    const generationId = await created(key, {
      generation_prompt: "slow failover [local:fail] [local:slow=300] [local-backup:slow=300]",
      generation_provider_order: "local,local-backup",
    });
    const createdEvent = await account.waitFor((event) => ofGeneration(generationId)(event) && event.event === "generation.created");
    account.close();
    const stream = await openSse(`/v1/content/${generationId}/events`, { key, lastEventId: createdEvent.id! });
    expect(stream.status).toBe(200);
    expect(stream.headers.get("content-type")).toMatch(/^text\/event-stream/);
    await stream.ended;
    const events = stream.events;
    expect(events[0]?.event).toBe("generation.snapshot");
    expect((events[0]?.data as { generation_id: string }).generation_id).toBe(generationId);
    expect(events.at(-1)?.event).toBe("generation.completed");
    expect((events.at(-1)?.data as { generation_status: string }).generation_status).toBe("succeeded");
    // The chain as it happened: local started and failed, local-backup started and succeeded.
    const chain = attemptsOf(events).map((attempt) => `${attempt.provider}#${attempt.attempt}:${attempt.outcome}`);
    expect(chain).toEqual(["local#1:started", "local#1:failed", "local-backup#2:started", "local-backup#2:succeeded"]);
    expect(attemptsOf(events).find((attempt) => attempt.outcome === "failed")?.error_code).toBe("ERR4002");
    // Resumed: the snapshot carries no id (the client holds the one it resumed from); every
    // later event has an opaque id of its own, never the one resumed from.
    expect(events[0]?.id).toBeNull();
    const after = events.slice(1).map((event) => event.id);
    for (const id of after) expect(id).toMatch(/^ev_[A-Za-z0-9_-]{22}$/);
    expect(new Set([createdEvent.id, ...after]).size).toBe(after.length + 1);
  });

  it("carries the record as GET /v1/content/{id} answers it in the snapshot and the terminal event", async () => {
    const { key } = await accountWithKey();
    const generationId = await created(key);
    const stream = await openSse(`/v1/content/${generationId}/events`, { key });
    await stream.ended;
    const terminal = stream.events.at(-1)!;
    const record = expectSuccess(await api(`/v1/content/${generationId}`, { key })) as Record<string, unknown>;
    const { generation_output_file: sentFiles, ...sent } = terminal.data as Record<string, unknown>;
    const { generation_output_file: readFiles, ...read } = record;
    expect(sent).toEqual(read);
    expect((sentFiles as string[]).length).toBe((readFiles as string[]).length);
    const processing = stream.events.find((event) => event.event === "generation.processing");
    if (processing) expect((processing.data as { generation_status: string }).generation_status).toBe("processing");
  });

  it("gives a finished generation its snapshot and terminal event at once", async () => {
    const { key, accountId } = await accountWithKey();
    const seeded = await seedFinishedImage(accountId);
    const stream = await openSse(`/v1/content/${seeded.id}/events`, { key });
    await stream.ended;
    expect(names(stream.events)).toEqual(["generation.snapshot", "generation.completed"]);
  });

  it("answers the envelope before a stream starts: another account's id, a bad Last-Event-ID, a missing scope, no key", async () => {
    const { key, accountId } = await accountWithKey();
    const other = await someoneElsesGeneration();
    expectError(asReply(await openSse(`/v1/content/${other.generationId}/events`, { key })), "ERR1006");
    expectError(asReply(await openSse(`/v1/content/not-an-id/events`, { key })), "ERR1006");
    const own = await created(key);
    expectError(asReply(await openSse(`/v1/content/${own}/events`, { key, lastEventId: "yesterday" })), "ERR1001");
    const writeOnly = await createTestKey(accountId, { scopes: ["generation:write"] });
    expectError(asReply(await openSse(`/v1/content/${own}/events`, { key: writeOnly.key })), "ERR1003");
    expectError(asReply(await openSse(`/v1/content/events`)), "ERR1002");
  });
});

describe("GET /v1/content/events", () => {
  it("sends every event of the account, generation.created first, and only the model asked for", async () => {
    const { key } = await accountWithKey();
    const all = await openSse("/v1/content/events", { key });
    const otherModel = await openSse("/v1/content/events?model_identifier=darkroom/lumen-video", { key });
    const imageModel = await openSse("/v1/content/events?model_identifier=darkroom/lumen-image", { key });
    const generationId = await created(key);
    const done = (event: SseEvent) => ofGeneration(generationId)(event) && event.event === "generation.completed";
    await all.waitFor(done);
    await imageModel.waitFor(done);
    const ofIt = all.events.filter(ofGeneration(generationId));
    expect(ofIt[0]?.event).toBe("generation.created");
    expect(names(ofIt)).toContain("generation.processing");
    expect(names(imageModel.events.filter(ofGeneration(generationId)))).toEqual(names(ofIt));
    // An event the filtered stream would show arrives after this one's: it saw none of the image's.
    const video = expectSuccess(await createVideo(key, { generation_prompt: "waves", generation_duration: 2 }), 202).generation_id;
    await otherModel.waitFor((event) => ofGeneration(video)(event) && event.event === "generation.created");
    expect(otherModel.events.filter(ofGeneration(generationId))).toEqual([]);
    for (const stream of [all, otherModel, imageModel]) stream.close();
  });

  it("resumes after Last-Event-ID (header or query) with no gap and no duplicate", async () => {
    const { key } = await accountWithKey();
    const whole = await openSse("/v1/content/events", { key });
    const first = await openSse("/v1/content/events", { key });
    const ids = [await created(key), await created(key), await created(key)];
    const allDone = (stream: SseStream) =>
      Promise.all(ids.map((id) => stream.waitFor((event) => ofGeneration(id)(event) && event.event === "generation.completed")));
    // The first client leaves after its third event; two clients resume from there.
    await first.waitFor(() => first.events.length >= 3);
    first.close();
    const seen = first.events.slice(0, 3);
    const lastId = seen.at(-1)!.id!;
    await allDone(whole);
    const byHeader = await openSse("/v1/content/events", { key, lastEventId: lastId });
    const byQuery = await openSse(`/v1/content/events?last_event_id=${lastId}`, { key });
    const tail = whole.events.slice(whole.events.findIndex((event) => event.id === lastId) + 1);
    for (const resumed of [byHeader, byQuery]) {
      await allDone(resumed);
      expect([...seen, ...resumed.events].map((event) => event.id)).toEqual(
        whole.events.map((event) => event.id).slice(0, seen.length + tail.length),
      );
      resumed.close();
    }
    whole.close();
  });

  it("caps concurrent streams by plan (ERR1009) and frees a slot when a stream ends", async () => {
    const { key } = await accountWithKey({ plan: "free" });
    const open: SseStream[] = [];
    for (let index = 0; index < 5; index += 1) {
      const stream = await openSse("/v1/content/events", { key });
      expect(stream.status).toBe(200);
      open.push(stream);
    }
    const refused = expectError(asReply(await openSse("/v1/content/events", { key })), "ERR1009");
    expect(refused.details.limit).toBe(5);
    open.shift()!.close();
    const again = await until(async () => {
      const stream = await openSse("/v1/content/events", { key });
      return stream.status === 200 && stream;
    }, "a stream opened once one of the five closed");
    for (const stream of [...open, again]) stream.close();
  });

  it("ends a revoked key's streams", async () => {
    const { key, keyId } = await accountWithKey();
    const generationId = await created(key, { generation_prompt: "long [local:slow=20000]", generation_provider_order: "local" });
    const account = await openSse("/v1/content/events", { key });
    const one = await openSse(`/v1/content/${generationId}/events`, { key });
    await one.waitFor((event) => event.event === "generation.snapshot");
    await inTransaction((tx) => revokeApiKey(tx, OPERATOR, { keyId, actor: "system" }));
    await Promise.all([account.ended, one.ended]);
    expect(names(one.events)).not.toContain("generation.completed");
  });

  it("sends a heartbeat comment on an idle stream", async () => {
    const { key } = await accountWithKey();
    const stream = await openSse("/v1/content/events", { key });
    expect(await stream.waitForComment((comment) => comment === "heartbeat")).toBe("heartbeat");
    expect(stream.events).toEqual([]);
    stream.close();
  });

  it("logs a stream once in the request log", async () => {
    const { key, keyId } = await accountWithKey();
    const stream = await openSse("/v1/content/events", { key });
    await created(key);
    await stream.waitFor((event) => event.event === "generation.completed");
    stream.close();
    const logged = async () => db.requestLog.count({ where: { apiKeyId: keyId, endpoint: "/v1/content/events" } });
    await until(async () => (await logged()) > 0, "the stream's request-log row");
    expect(await logged()).toBe(1);
  });
});
