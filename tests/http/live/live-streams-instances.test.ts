import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/server/base/db";
import { DASHBOARD_STREAMS_PER_SESSION } from "@/server/live/stream-slots";
import { accountWithKey } from "@/tests/support/fixtures";
import { createImage } from "@/tests/support/generations";
import { expectError, expectSuccess } from "@/tests/support/http";
import { join, openLiveFeed, signedInPerson, teamOf } from "@/tests/support/live-feed";
import { startSecondInstance, type SecondInstance } from "@/tests/support/second-instance";
import { signIn, trpc } from "@/tests/support/session";
import { ofGeneration, openSse, type SseEvent, type SseStream } from "@/tests/support/sse-client";
import { until } from "@/tests/support/until";

// Across instances (issues #31, #43): a stream held on one instance sees a generation created on
// and run by another, because events come from PostgreSQL (the table and its NOTIFY), not from
// memory; the stream caps hold over both instances (leases in PostgreSQL), an instance that dies
// frees its slots, a removal made on one instance ends the stream held on the other, and an id one
// instance sent resumes on the other (ids are the same on every instance).

/** The second instance's own dashboard cap, low enough to fill. */
const SECOND_PROCESS_CAP = 4;

let second: SecondInstance;

beforeAll(async () => {
  second = await startSecondInstance({ LIVE_DASHBOARD_STREAMS_PER_PROCESS: String(SECOND_PROCESS_CAP) });
}, 120_000);

afterAll(async () => {
  await second.stop();
}, 60_000);

const asReply = (stream: SseStream) => ({ status: stream.status, headers: stream.headers, body: stream.body });

async function openOn(count: number, open: () => Promise<SseStream>): Promise<SseStream[]> {
  const streams: SseStream[] = [];
  for (let index = 0; index < count; index += 1) {
    const stream = await open();
    expect(stream.status).toBe(200);
    streams.push(stream);
  }
  return streams;
}

describe("live streams across instances", () => {
  it("a stream on the second instance sees a generation run by the first", async () => {
    const { key } = await accountWithKey();
    const account = await openSse("/v1/content/events", { key, base: second.baseUrl });
    expect(account.status).toBe(200);
    const generationId = expectSuccess(await createImage(key, { generation_prompt: "made elsewhere" }), 202).generation_id;
    const one = await openSse(`/v1/content/${generationId}/events`, { key, base: second.baseUrl });
    await account.waitFor((event) => ofGeneration(generationId)(event) && event.event === "generation.completed");
    await one.ended;
    account.close();
    expect(account.events.filter(ofGeneration(generationId)).map((event) => event.event)[0]).toBe("generation.created");
    expect(one.events.at(-1)?.event).toBe("generation.completed");
  });

  it("the plan's /v1 cap holds over both instances (ERR1009 on either)", async () => {
    const { key } = await accountWithKey({ plan: "free" });
    const streams = [
      ...(await openOn(3, () => openSse("/v1/content/events", { key }))),
      ...(await openOn(2, () => openSse("/v1/content/events", { key, base: second.baseUrl }))),
    ];
    for (const base of [undefined, second.baseUrl]) {
      const refused = expectError(asReply(await openSse("/v1/content/events", { key, base })), "ERR1009");
      expect(refused.details).toMatchObject({ limit: 5, open_streams: 5, kind: "event_stream" });
    }
    for (const stream of streams) stream.close();
  });

  it("a removal made on the first instance ends the member's stream held on the second", async () => {
    const alice = await signedInPerson("instances-owner");
    const bob = await signedInPerson("instances-member");
    const accountId = await teamOf(alice);
    await join(accountId, bob, "member");
    const bobs = await openLiveFeed(bob.cookie, accountId, { base: second.baseUrl });
    expect(bobs.status).toBe(200);
    await bobs.waitForComment((comment) => comment === "stream open");
    expect((await trpc("team.remove", { accountId, userId: bob.userId }, { cookie: alice.cookie, mutation: true })).status).toBe(200);
    await bobs.ended;
  });

  it("a dashboard session's cap holds over both instances; the second instance's process cap refuses beyond it", async () => {
    const alice = await signedInPerson("instances-alice");
    const accountId = await teamOf(alice);
    const onSecond = SECOND_PROCESS_CAP;
    const streams = [
      ...(await openOn(DASHBOARD_STREAMS_PER_SESSION - onSecond, () => openLiveFeed(alice.cookie, accountId))),
      ...(await openOn(onSecond, () => openLiveFeed(alice.cookie, accountId, { base: second.baseUrl }))),
    ];
    expect((await openLiveFeed(alice.cookie, accountId)).status).toBe(429);
    // Another session: under its own cap, but the second process is full; the first serves it.
    const laptop = (await signIn(alice.email)).cookie;
    expect((await openLiveFeed(laptop, accountId, { base: second.baseUrl })).status).toBe(429);
    const served = await openLiveFeed(laptop, accountId);
    expect(served.status).toBe(200);
    for (const stream of [...streams, served]) stream.close();
  });

  it("resumes on the second instance after an id sent by the first (ids are the same everywhere)", async () => {
    const { key } = await accountWithKey();
    const first = await openSse("/v1/content/events", { key });
    const ids = [
      expectSuccess(await createImage(key, { generation_prompt: "one" }), 202).generation_id,
      expectSuccess(await createImage(key, { generation_prompt: "two" }), 202).generation_id,
    ];
    const done = (generationId: string) => (event: SseEvent) => ofGeneration(generationId)(event) && event.event === "generation.completed";
    await first.waitFor(done(ids[1]!));
    await first.waitFor(done(ids[0]!));
    first.close();
    const cut = first.events.findIndex((event) => event.event === "generation.created" && ofGeneration(ids[1]!)(event));
    const resumed = await openSse("/v1/content/events", { key, base: second.baseUrl, lastEventId: first.events[cut]!.id! });
    const tail = first.events.slice(cut + 1);
    await resumed.waitFor(() => resumed.events.length >= tail.length);
    resumed.close();
    expect(resumed.events.slice(0, tail.length).map((event) => `${event.id}:${event.event}`)).toEqual(
      tail.map((event) => `${event.id}:${event.event}`),
    );
  });

  it("an instance whose row another's sweep deleted (its renewals failed a while) counts its streams again once it renews", async () => {
    const { key, accountId } = await accountWithKey({ plan: "free" });
    const streams = await openOn(5, () => openSse("/v1/content/events", { key, base: second.baseUrl }));
    const [lease] = await db.$queryRaw<
      Array<{ instance_id: string }>
    >`SELECT instance_id::text FROM stream_lease WHERE account_id = ${accountId}::uuid LIMIT 1`;
    // What the first instance's sweep does to an instance dead a minute (its leases go with its row).
    await db.$executeRaw`DELETE FROM stream_instance WHERE id = ${lease!.instance_id}::uuid`;
    const renewed = async () =>
      (await db.$queryRaw<unknown[]>`SELECT 1 FROM stream_instance WHERE id = ${lease!.instance_id}::uuid`).length > 0;
    await until(renewed, "the stream lease row renewed");
    // The renewal that created the row again put back the five leases the second instance holds.
    for (const base of [undefined, second.baseUrl]) {
      const refused = expectError(asReply(await openSse("/v1/content/events", { key, base })), "ERR1009");
      expect(refused.details).toMatchObject({ limit: 5, open_streams: 5, kind: "event_stream" });
    }
    for (const stream of streams) stream.close();
  });

  // Last: it kills the second instance.
  it("an instance that dies frees its slots: its leases stop counting once its row expires", async () => {
    const { key, accountId } = await accountWithKey({ plan: "free" });
    await openOn(5, () => openSse("/v1/content/events", { key, base: second.baseUrl }));
    expectError(asReply(await openSse("/v1/content/events", { key })), "ERR1009");
    await second.kill();
    // Watched in the table (each refused request would count against the free plan's rate limit).
    const counted = async () => {
      const [row] = await db.$queryRaw<Array<{ held: number }>>`
        SELECT count(*)::int AS held FROM stream_lease l JOIN stream_instance i ON i.id = l.instance_id
         WHERE l.account_id = ${accountId}::uuid AND i.expires_at > now()`;
      return row?.held ?? 0;
    };
    await until(async () => (await counted()) === 0, "every stream lease of the account expired");
    const served = await openSse("/v1/content/events", { key });
    expect(served.status).toBe(200);
    served.close();
  }, 90_000);
});
