import { describe, expect, it } from "vitest";
import { db } from "@/server/base/db";
import { purgeGenerationEvents } from "@/server/retention/purge-generation-events";
import { accountWithKey } from "@/tests/support/fixtures";
import { cancel, createImage, waitForStatus } from "@/tests/support/generations";
import { expectSuccess } from "@/tests/support/http";
import { ofGeneration, openSse } from "@/tests/support/sse-client";

// The event log behind the live streams (migration generation_events): the triggers write one row
// per state change in the changing transaction, whichever path makes it (here a cancel, and plain
// SQL), and the retention pass removes rows past 48 h.

const eventsOf = async (generationId: string) =>
  (await db.generationEvent.findMany({ where: { generationId }, orderBy: { id: "asc" } })).map(
    (event) => `${event.name}${event.name === "generation.attempt" ? `:${(event.payload as { outcome: string }).outcome}` : ""}`,
  );

describe("generation_event", () => {
  it("records a cancel with its refund, and the stream sends the canceled record as the webhook does", async () => {
    const { key } = await accountWithKey();
    const account = await openSse("/v1/content/events", { key });
    const generationId = expectSuccess(
      await createImage(key, { generation_prompt: "[local:slow=20000] to be canceled", generation_provider_order: "local" }),
      202,
    ).generation_id;
    await waitForStatus(key, generationId, ["processing"]);
    expectSuccess(await cancel(key, generationId));
    const canceled = await account.waitFor((event) => ofGeneration(generationId)(event) && event.event === "generation.canceled");
    account.close();
    expect(canceled.data).toMatchObject({ generation_status: "canceled", credits_refunded: true });
    const names = await eventsOf(generationId);
    expect(names.slice(0, 3)).toEqual(["generation.created", "generation.processing", "generation.attempt:started"]);
    expect(names.at(-1)).toBe("generation.canceled");
    expect(names.filter((name) => name === "generation.canceled")).toHaveLength(1);
  });

  it("records a change made in plain SQL", async () => {
    const { key } = await accountWithKey();
    const generationId = expectSuccess(
      await createImage(key, { generation_prompt: "[local:slow=20000] failed by hand", generation_provider_order: "local" }),
      202,
    ).generation_id;
    await waitForStatus(key, generationId, ["processing"]);
    await db.$executeRaw`UPDATE generation SET status = 'failed', error_code = 'ERR5000' WHERE id = ${generationId}::uuid`;
    const names = await eventsOf(generationId);
    expect(names.slice(-2)).toEqual(["generation.attempt:failed", "generation.failed"]);
  });

  it("is purged past 48 h by the retention pass, newer events stay", async () => {
    const { accountId } = await accountWithKey();
    const generationId = crypto.randomUUID();
    const row = (createdAt: Date) => ({
      accountId,
      generationId,
      modelIdentifier: "darkroom/lumen-image",
      name: "generation.created",
      payload: {},
      createdAt,
    });
    const now = new Date();
    const old = await db.generationEvent.create({ data: row(new Date(now.getTime() - 49 * 3600_000)) });
    const recent = await db.generationEvent.create({ data: row(new Date(now.getTime() - 47 * 3600_000)) });
    expect(await purgeGenerationEvents(now, 1000)).toBeGreaterThanOrEqual(1);
    expect(await db.generationEvent.findUnique({ where: { id: old.id } })).toBeNull();
    expect(await db.generationEvent.findUnique({ where: { id: recent.id } })).not.toBeNull();
  });
});
