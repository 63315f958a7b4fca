import { describe, expect, it } from "vitest";
import { db } from "@/server/base/db";
import { accountWithKey } from "@/tests/support/fixtures";
import { seedFinishedImage } from "@/tests/support/generations";
import { burstEvents, openPausedStream } from "@/tests/support/live-burst";
import { ofGeneration, openSse, type SseEvent } from "@/tests/support/sse-client";
import { until } from "@/tests/support/until";

// The live streams' memory (issue #43, rows 2 and 4), over real HTTP against the built app: a
// client that stops reading is ended once 4 MiB are queued for it (and resumes from its last
// event), a long backlog is sent page by page as the client takes it, and a resume further back
// than the limits gets a stream.reset instead of the history.

const BURST = 2_500;
const PAUSED_BURST = 10_000;
/** A generation whose record events are ~5 KB each (a prompt of 3,900 characters). */
const bulkyGeneration = (accountId: string) => seedFinishedImage(accountId, { prompt: "a lighthouse ".repeat(300) });
const processing = (event: SseEvent) => event.event === "generation.processing";

describe("a client that stops reading", () => {
  it("is ended once 4 MiB are queued for it, and resumes from its last complete event with nothing lost or repeated", async () => {
    const { key, accountId } = await accountWithKey({ plan: "free" });
    const generation = await bulkyGeneration(accountId);
    const paused = await Promise.all(Array.from({ length: 5 }, () => openPausedStream("/v1/content/events", key)));
    for (const stream of paused) expect(stream.status).toBe(200);
    // ~50 MB for each of the five streams: more than the cap and all the kernel's socket buffers can
    // hold (tcp_rmem and tcp_wmem at most 32 + 4 MB here).
    await burstEvents(generation.id, PAUSED_BURST);

    // The plan holds five streams: a sixth opens once the server has ended one of the five.
    // (Every 2 s: under Free's 30 requests a minute, a busy host given its time.)
    await until(
      async () => {
        const sixth = await openSse("/v1/content/events", { key });
        sixth.close();
        return sixth.status === 200;
      },
      "a sixth stream opened once the server ended one of the five",
      { timeoutMs: 100_000, everyMs: 2_000 },
    );
    // Each client reads on: to the end the server made, or (one the server kept) to the burst's last event.
    const outcomes = await Promise.all(paused.map((stream) => stream.resume(PAUSED_BURST)));
    const ended = outcomes.filter((outcome) => outcome.endedByServer);
    expect(ended.length).toBeGreaterThan(0);
    for (const outcome of ended) {
      expect(outcome.events.filter((event) => event.event === "generation.processing").length).toBeLessThan(PAUSED_BURST);
      expect(outcome.bytes).toBeLessThan(50 * 1024 * 1024);
    }

    // The client resumes after the last event it read whole, and gets the rest of the burst once.
    const kept = ended[0]!.events.filter((event) => event.id !== null);
    const rest = PAUSED_BURST - kept.filter((event) => event.event === "generation.processing").length;
    const resumed = await openSse("/v1/content/events", { key, lastEventId: kept.at(-1)!.id! });
    await resumed.waitFor(() => resumed.events.filter(processing).length >= rest);
    resumed.close();
    const ids = [...kept, ...resumed.events].map((event) => event.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(resumed.events.filter(processing)).toHaveLength(rest);
  }, 240_000);
});

/** A generation seeded for a new key's account, and the id of its generation.created (a cursor from before it). */
async function seededWithCursor(seed: (accountId: string) => Promise<{ id: string }>) {
  const { key, accountId } = await accountWithKey();
  const account = await openSse("/v1/content/events", { key });
  const generation = await seed(accountId);
  const created = await account.waitFor((event) => ofGeneration(generation.id)(event) && event.event === "generation.created");
  account.close();
  return { key, accountId, generation, cursor: created.id! };
}

describe("resuming", () => {
  it("sends a backlog of 12 MB page by page as the client takes it: every event, in order, once", async () => {
    const { key, generation, cursor } = await seededWithCursor((id) => bulkyGeneration(id));
    await burstEvents(generation.id, BURST);
    const resumed = await openSse("/v1/content/events", { key, lastEventId: cursor });
    await resumed.waitFor(() => resumed.events.filter(processing).length >= BURST);
    resumed.close();
    expect(resumed.events.map((event) => event.event)).toEqual(Array.from({ length: BURST }, () => "generation.processing"));
    expect(new Set(resumed.events.map((event) => event.id)).size).toBe(BURST);
    const stored = await db.generationEvent.findMany({
      where: { generationId: generation.id, name: "generation.processing" },
      orderBy: { id: "asc" },
      select: { id: true },
    });
    expect(stored).toHaveLength(BURST);
  }, 120_000);

  it("answers a cursor with more than 10,000 events after it with stream.reset and a fresh id, then the live events", async () => {
    const { key, accountId, generation, cursor } = await seededWithCursor((id) => seedFinishedImage(id));
    await burstEvents(generation.id, 10_001, "attempt");
    const resumed = await openSse("/v1/content/events", { key, lastEventId: cursor });
    const reset = await resumed.waitFor((event) => event.event === "stream.reset");
    expect(resumed.events[0]).toBe(reset);
    expect(reset.data).toEqual({ reason: "backlog_too_long", resume_limits: { events: 10_000, hours: 24 } });
    expect(reset.id).toMatch(/^ev_/);
    expect(reset.id).not.toBe(cursor);
    const next = await seedFinishedImage(accountId);
    await resumed.waitFor((event) => ofGeneration(next.id)(event) && event.event === "generation.created");
    resumed.close();
    expect(resumed.events.filter((event) => event.event === "generation.attempt")).toEqual([]);
  }, 60_000);

  it("answers a cursor older than 24 h with stream.reset; a generation's stream starts afresh (a snapshot with a new id)", async () => {
    const { key, accountId, generation, cursor } = await seededWithCursor((id) =>
      seedFinishedImage(id, { status: "processing", completedAt: null, outputKeys: [] }),
    );
    const dayAgo = new Date(Date.now() - 25 * 3600_000);
    await db.generationEvent.create({
      data: {
        accountId,
        generationId: generation.id,
        modelIdentifier: "darkroom/lumen-image",
        name: "generation.attempt",
        payload: { generation_id: generation.id, provider: "local", attempt: 1, outcome: "started" },
        createdAt: dayAgo,
      },
    });

    const resumed = await openSse("/v1/content/events", { key, lastEventId: cursor });
    const reset = await resumed.waitFor((event) => event.event === "stream.reset");
    resumed.close();
    expect((reset.data as { reason: string }).reason).toBe("cursor_too_old");

    const own = await openSse(`/v1/content/${generation.id}/events`, { key, lastEventId: cursor });
    const snapshot = await own.waitFor((event) => event.event === "generation.snapshot");
    own.close();
    expect(snapshot.id).toMatch(/^ev_/);
    expect(snapshot.id).not.toBe(cursor);
    expect(own.events.filter((event) => event.event === "generation.attempt")).toEqual([]);
    await db.generation.update({ where: { id: generation.id }, data: { status: "failed", errorCode: "ERR5000", completedAt: new Date() } });
  }, 60_000);
});
