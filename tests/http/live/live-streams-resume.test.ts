import { describe, expect, it } from "vitest";
import { db } from "@/server/base/db";
import { accountWithKey } from "@/tests/support/fixtures";
import { createImage, seedFinishedImage } from "@/tests/support/generations";
import { expectError, expectSuccess, type ApiReply } from "@/tests/support/http";
import { ofGeneration, openSse, type SseEvent, type SseStream } from "@/tests/support/sse-client";

// Stream event ids (issue #43, rows 8 and 10), over real HTTP against the built app: opaque ids
// bound to their account that tell nothing of other accounts, the legacy numeric ids still good for
// resuming, and a generation's stream cut after every event and resumed, never repeating an id.

const asReply = (stream: SseStream): ApiReply => ({ status: stream.status, headers: stream.headers, body: stream.body });
const createdOf = (stream: SseStream, generationId: string) =>
  stream.waitFor((event) => ofGeneration(generationId)(event) && event.event === "generation.created");
const TERMINAL = ["generation.completed", "generation.failed", "generation.canceled"];
const OPAQUE = /^ev_[A-Za-z0-9_-]{22}$/;

describe("event ids", () => {
  it("are opaque, the same for an event on every stream of its account, and unrelated across accounts working in turns", async () => {
    const first = await accountWithKey();
    const second = await accountWithKey();
    const [firstA, firstB, secondA] = await Promise.all([
      openSse("/v1/content/events", { key: first.key }),
      openSse("/v1/content/events", { key: first.key }),
      openSse("/v1/content/events", { key: second.key }),
    ]);
    const seen: Array<{ account: "first" | "second"; event: SseEvent; generationId: string }> = [];
    for (const account of ["first", "second", "first", "second", "first", "first"] as const) {
      const generation = await seedFinishedImage((account === "first" ? first : second).accountId);
      seen.push({ account, event: await createdOf(account === "first" ? firstA : secondA, generation.id), generationId: generation.id });
    }
    const ids = seen.map((entry) => entry.event.id!);
    for (const id of ids) expect(id).toMatch(OPAQUE);
    expect(new Set(ids).size).toBe(ids.length);
    // Consecutive events of one account: ids as unrelated as random blocks (most bytes differ).
    const firstIds = seen.filter((entry) => entry.account === "first").map((entry) => Buffer.from(entry.event.id!.slice(3), "base64url"));
    for (let index = 1; index < firstIds.length; index += 1) {
      const differing = firstIds[index]!.reduce((count, byte, at) => count + (byte === firstIds[index - 1]![at] ? 0 : 1), 0);
      expect(differing).toBeGreaterThan(8);
    }
    // The same event, on another stream of the same account: the same id.
    for (const entry of seen.filter((item) => item.account === "first"))
      expect((await createdOf(firstB, entry.generationId)).id).toBe(entry.event.id);
    for (const stream of [firstA, firstB, secondA]) stream.close();
  });

  it("refuses another account's id, and one that is no id, with ERR1001 before the stream starts", async () => {
    const owner = await accountWithKey();
    const stranger = await accountWithKey();
    const stream = await openSse("/v1/content/events", { key: owner.key });
    const generation = await seedFinishedImage(owner.accountId);
    const created = await createdOf(stream, generation.id);
    stream.close();
    expectError(asReply(await openSse("/v1/content/events", { key: stranger.key, lastEventId: created.id! })), "ERR1001");
    const strangers = await seedFinishedImage(stranger.accountId);
    expectError(asReply(await openSse(`/v1/content/${strangers.id}/events`, { key: stranger.key, lastEventId: created.id! })), "ERR1001");
    const forged = `ev_${Buffer.alloc(16, 7).toString("base64url")}`;
    const refused = expectError(asReply(await openSse("/v1/content/events", { key: owner.key, lastEventId: forged })), "ERR1001");
    expect(refused.details.fields?.[0]?.field).toBe("Last-Event-ID");
    expectError(asReply(await openSse("/v1/content/events", { key: owner.key, lastEventId: "ev_short" })), "ERR1001");
  });

  it("accepts the numeric ids sent before (0 from the start, and those issued before the change); a later number resets", async () => {
    const { key, accountId } = await accountWithKey();
    const one = await seedFinishedImage(accountId);
    const two = await seedFinishedImage(accountId);
    const fromStart = await openSse("/v1/content/events", { key, lastEventId: "0" });
    await createdOf(fromStart, two.id);
    fromStart.close();
    expect(fromStart.events.filter((event) => event.event === "generation.created").map((event) => event.data)).toMatchObject([
      { generation_id: one.id },
      { generation_id: two.id },
    ]);

    const [oneEvent, twoEvent] = await db.generationEvent.findMany({
      where: { generationId: { in: [one.id, two.id] } },
      orderBy: { id: "asc" },
      select: { id: true },
    });
    // As if ids became cursors right after the first of the two: its number was sent, the second's never.
    await db.$executeRawUnsafe(
      `CREATE OR REPLACE FUNCTION darkroom_legacy_event_ids_end() RETURNS bigint LANGUAGE sql IMMUTABLE AS 'SELECT ${oneEvent!.id}::bigint'`,
    );
    try {
      const legacy = await openSse("/v1/content/events", { key, lastEventId: oneEvent!.id.toString() });
      await createdOf(legacy, two.id);
      legacy.close();
      expect(legacy.events.map((event) => event.event)).toEqual(["generation.created"]);
      const never = await openSse("/v1/content/events", { key, lastEventId: twoEvent!.id.toString() });
      const reset = await never.waitFor(() => true);
      never.close();
      expect(reset).toMatchObject({ event: "stream.reset", data: { reason: "cursor_unknown" } });
    } finally {
      await db.$executeRawUnsafe(
        "CREATE OR REPLACE FUNCTION darkroom_legacy_event_ids_end() RETURNS bigint LANGUAGE sql IMMUTABLE AS 'SELECT 0::bigint'",
      );
    }
  });
});

describe("a cursor older than 24 h whose missed events were purged", () => {
  it("gets stream.reset (cursor_too_old) by its own age, though every missed event still kept is recent", async () => {
    const { key, accountId } = await accountWithKey();
    const stream = await openSse("/v1/content/events", { key });
    const past = await seedFinishedImage(accountId);
    const cursor = (await createdOf(stream, past.id)).id!;
    stream.close();
    const purged = await seedFinishedImage(accountId);
    const recent = await seedFinishedImage(accountId);
    const cursorRow = await db.generationEvent.findFirstOrThrow({
      where: { generationId: past.id, name: "generation.created" },
      select: { id: true },
    });
    const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3600_000);
    // The cursor from 60 h ago, events of 55 h ago purged since (after 48 h), events of 2 h ago kept.
    await db.generationEvent.updateMany({ where: { id: { lte: cursorRow.id }, accountId }, data: { createdAt: hoursAgo(60) } });
    await db.generationEvent.deleteMany({ where: { accountId, id: { gt: cursorRow.id }, generationId: { not: recent.id } } });
    await db.generationEvent.updateMany({ where: { generationId: recent.id }, data: { createdAt: hoursAgo(2) } });
    expect(await db.generationEvent.count({ where: { generationId: purged.id } })).toBe(0);

    const resumed = await openSse("/v1/content/events", { key, lastEventId: cursor });
    const first = await resumed.waitFor(() => true);
    resumed.close();
    expect(first).toMatchObject({ event: "stream.reset", data: { reason: "cursor_too_old" } });
  });
});

describe("a generation's stream resumed after each event", () => {
  it("never sends an id twice and misses nothing, the resume snapshots carrying no id", async () => {
    const { key } = await accountWithKey();
    const account = await openSse("/v1/content/events", { key });
    const reply = await createImage(key, {
      generation_prompt: "cut often [local:fail] [local:slow=600] [local-backup:slow=600]",
      generation_provider_order: "local,local-backup",
    });
    const generationId = expectSuccess(reply, 202).generation_id;
    const received: SseEvent[] = [];
    let lastEventId: string | undefined;
    for (let connections = 0; connections < 20 && !received.some((event) => TERMINAL.includes(event.event)); connections += 1) {
      const stream = await openSse(`/v1/content/${generationId}/events`, { key, lastEventId });
      // Cut right after the first event with an id (or at the end of a stream that had none).
      await stream.waitFor((event) => event.id !== null).catch(() => undefined);
      stream.close();
      if (lastEventId !== undefined) expect(stream.events[0]).toMatchObject({ event: "generation.snapshot", id: null });
      // What the client had read when it cut the connection.
      received.push(...stream.events);
      lastEventId = stream.events.filter((event) => event.id !== null).at(-1)?.id ?? lastEventId;
    }
    const ids = received.flatMap((event) => (event.id === null ? [] : [event.id]));
    expect(new Set(ids).size).toBe(ids.length);
    // Everything the account's stream saw of it after its creation, each once, in order.
    const whole = await account.waitFor((event) => ofGeneration(generationId)(event) && TERMINAL.includes(event.event));
    account.close();
    const expected = account.events.filter(ofGeneration(generationId)).filter((event) => event.event !== "generation.created");
    expect(received.filter((event) => event.event !== "generation.snapshot").map((event) => `${event.id}:${event.event}`)).toEqual(
      expected
        .slice(-received.filter((event) => event.event !== "generation.snapshot").length)
        .map((event) => `${event.id}:${event.event}`),
    );
    expect(received.at(-1)?.event).toBe(whole.event);
  }, 60_000);
});
