import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCaller } from "@/tests/support/dashboard-caller";
import { findModel } from "@/server/catalog";
import { generationRequestSchema } from "@/server/catalog/request-schema";
import { db, disconnectDb } from "@/server/base/db";
import { resetEnvCache } from "@/server/base/env";
import type { GenerationStatus } from "@/server/base/generated/prisma/enums";
import { planGeneration, startGeneration } from "@/server/generations/start-generation";
import { registerExecutor, unregisterExecutor } from "@/server/base/events/executor-registry";
import { ensureAuthSecret } from "@/server/start/secrets";
import { inTransaction } from "@/server/base/transaction";
import { recordingEventSink } from "@/tests/support/event-sink";
import { accountWithKey, addTeamMember, createTestAccount, createTestKey } from "@/tests/support/fixtures";
import { createImage, waitForStatus } from "@/tests/support/generations";
import { expectEveryRowOnce, readEveryPage } from "@/tests/support/cursor-pages";
import { expectSuccess } from "@/tests/support/http";
import { trpcFailure } from "@/tests/support/trpc-errors";

// The dashboard's generations router through createCaller, against the real database: members
// browse and read, owners cancel and delete, other accounts see nothing. One generation runs for
// real in the app `npm test` started (attempts, ledger, output files); the in-flight ones are
// started in this process, their run request caught by a sink so they stay pending.

const { sink } = recordingEventSink();
beforeAll(() => {
  registerExecutor(sink);
  // Signed output links need the app's secret: npm test gives this process the app's DATA_DIR.
  ensureAuthSecret();
});
afterAll(async () => {
  unregisterExecutor(sink);
  await disconnectDb();
});

const as = (userId: string | null) => createCaller({ userId }).generations;

async function expectCode(promise: Promise<unknown>, code: string) {
  expect((await trpcFailure(promise)).apiError.code).toBe(code);
}

/** A pending generation made by the domain path the create route uses; nothing runs it. */
async function pendingGeneration(accountId: string) {
  const key = await createTestKey(accountId);
  const model = findModel("darkroom/lumen-image")!;
  const fields = generationRequestSchema(model).parse({ generation_prompt: "waiting" });
  const plan = await planGeneration({ accountId, apiKeyId: key.apikey_id, region: "us", model, fields });
  return (await inTransaction((tx) => startGeneration(tx, plan))).generation_id;
}

let sequence = 0;

/** A finished record inserted directly, for filters and paging. */
async function insertGeneration(accountId: string, options: { status?: GenerationStatus; model?: string; createdAt?: Date } = {}) {
  const row = await db.generation.create({
    data: {
      accountId,
      region: "us",
      mediaKind: "image",
      modelIdentifier: options.model ?? "darkroom/lumen-image",
      status: options.status ?? "succeeded",
      prompt: `row ${++sequence}`,
      providerOrder: ["local"],
      estimatedCost: "0.002",
      createdAt: options.createdAt ?? new Date(Date.now() - 3_600_000 + sequence),
    },
  });
  return row.id;
}

async function team() {
  const { accountId, userId: primaryOwner } = await createTestAccount();
  const owner = await addTeamMember(accountId, "owner");
  const member = await addTeamMember(accountId, "member");
  return { accountId, primaryOwner, owner, member };
}

describe("generations router: who may do what", () => {
  it("refuses a signed-out caller with ERR1002", async () => {
    const { accountId } = await team();
    await expectCode(as(null).list({ accountId }), "ERR1002");
  });

  it("lets a member browse and read, but not cancel or delete (ERR1003)", async () => {
    const { accountId, member } = await team();
    const done = await insertGeneration(accountId);
    const inFlight = await pendingGeneration(accountId);
    const reader = as(member);

    expect((await reader.list({ accountId })).generations.map((row) => row.generation_id)).toEqual([inFlight, done]);
    expect(await reader.models({ accountId })).toEqual(["darkroom/lumen-image"]);
    const detail = await reader.get({ accountId, generationId: inFlight });
    expect(detail.record.generation_status).toBe("pending");
    expect(detail.cancelable).toBe(true);
    expect(detail.ledger.map((entry) => entry.type)).toEqual(["reserve"]);

    for (const mutation of [reader.cancel({ accountId, generationId: inFlight }), reader.delete({ accountId, generationId: done })]) {
      const { code, apiError } = await trpcFailure(mutation);
      expect(code).toBe("FORBIDDEN");
      expect(apiError.code).toBe("ERR1003");
    }
    expect((await db.generation.findUniqueOrThrow({ where: { id: inFlight } })).status).toBe("pending");
    expect((await db.generation.findUniqueOrThrow({ where: { id: done } })).removedAt).toBeNull();
  });

  it("answers ERR1006 for another account's generation, an unknown id and a malformed one", async () => {
    const mine = await team();
    const theirs = await createTestAccount();
    const theirGeneration = await insertGeneration(theirs.accountId);
    const owner = as(mine.primaryOwner);
    for (const generationId of [theirGeneration, "7f1c0a52-5f0e-4a55-9d6c-0d3b0f7c2a11", "not-a-uuid"]) {
      await expectCode(owner.get({ accountId: mine.accountId, generationId }), "ERR1006");
      await expectCode(owner.cancel({ accountId: mine.accountId, generationId }), "ERR1006");
      await expectCode(owner.delete({ accountId: mine.accountId, generationId }), "ERR1006");
    }
    // A cursor is a position, not an id: a generation id is none, and another account's cursor lists only the caller's rows.
    await expectCode(owner.list({ accountId: mine.accountId, cursor: theirGeneration }), "ERR1001");
    await insertGeneration(theirs.accountId);
    const theirCursor = (await as(theirs.userId).list({ accountId: theirs.accountId, limit: 1 })).nextCursor;
    expect(theirCursor).not.toBeNull();
    expect((await owner.list({ accountId: mine.accountId, cursor: theirCursor })).generations).toEqual([]);
    // Nor is another account's id with its own accountId, when the caller is no member there.
    await expectCode(owner.get({ accountId: theirs.accountId, generationId: theirGeneration }), "ERR1006");
    expect((await db.generation.findUniqueOrThrow({ where: { id: theirGeneration } })).removedAt).toBeNull();
  });

  it.each(["owner", "primaryOwner"] as const)("lets the %s cancel an in-flight generation (refunded) and delete one", async (role) => {
    const people = await team();
    const { accountId } = people;
    const generationId = await pendingGeneration(accountId);
    const canceled = await as(people[role]).cancel({ accountId, generationId });
    expect(canceled).toMatchObject({
      generation_id: generationId,
      generation_status: "canceled",
      credits_refunded: true,
      credits_refunded_amount: 0.002,
    });

    const detail = await as(people.member).get({ accountId, generationId });
    expect(detail.cancelable).toBe(false);
    expect(detail.ledger.map((entry) => [entry.type, entry.amount])).toEqual([
      ["reserve", expect.any(Number)],
      ["refund", 0.002],
    ]);
    expect(detail.ledger.at(-1)?.balance_after).toBeCloseTo(detail.ledger[0]!.balance_after + 0.002, 3);

    // Canceling again: no longer cancelable.
    await expectCode(as(people[role]).cancel({ accountId, generationId }), "ERR1010");

    expect(await as(people[role]).delete({ accountId, generationId })).toEqual({ generation_id: generationId, files_deleted: 0 });
    expect((await as(people.member).get({ accountId, generationId })).record.generation_removed).toBe("true");
    const activity = await db.activityEvent.findMany({
      where: { accountId, category: "generation" },
      select: { action: true, actor: true },
    });
    expect(activity).toEqual(
      expect.arrayContaining([
        { action: "generation.canceled", actor: people[role] },
        { action: "generation.deleted", actor: people[role] },
      ]),
    );
  });

  it("deletes an in-flight generation by canceling it first", async () => {
    const { accountId, owner } = await team();
    const generationId = await pendingGeneration(accountId);
    await as(owner).delete({ accountId, generationId });
    const row = await db.generation.findUniqueOrThrow({ where: { id: generationId } });
    expect(row.status).toBe("canceled");
    expect(row.removedAt).not.toBeNull();
  });
});

describe("generations router: routing exploration", () => {
  // jp: no other suite runs generations there, so no open circuit can keep exploration off.
  async function plannedInJp(accountId: string, share: string) {
    process.env.ROUTING_EXPLORATION_SHARE = share;
    resetEnvCache();
    try {
      const key = await createTestKey(accountId);
      const model = findModel("darkroom/lumen-image")!;
      const fields = generationRequestSchema(model).parse({ generation_prompt: "explore" });
      const plan = await planGeneration({ accountId, apiKeyId: key.apikey_id, region: "jp", model, fields });
      return { plan, created: await inTransaction((tx) => startGeneration(tx, plan)) };
    } finally {
      delete process.env.ROUTING_EXPLORATION_SHARE;
      resetEnvCache();
    }
  }

  it("records on the generation that fastest tried its second-ranked provider first", async () => {
    const { accountId, userId } = await createTestAccount();
    const explored = await plannedInJp(accountId, "1");
    expect(explored.plan.routingExploration).toBe(true);
    // Without data the ranking is the catalog order (local, local-backup): exploration swaps the two.
    expect(explored.created.generation_provider_order).toEqual(["local-backup", "local"]);
    const detail = await as(userId).get({ accountId, generationId: explored.created.generation_id });
    expect(detail.routing_exploration).toBe(true);
    expect(detail.record.generation_provider_order).toEqual(["local-backup", "local"]);
    expect(detail.record).not.toHaveProperty("routing_exploration");

    const stayed = await plannedInJp(accountId, "0");
    expect(stayed.created.generation_provider_order).toEqual(["local", "local-backup"]);
    expect((await as(userId).get({ accountId, generationId: stayed.created.generation_id })).routing_exploration).toBe(false);
  });
});

describe("generations router: a real run", () => {
  it("shows the attempts, the ledger and signed output files of a generation run by the app", async () => {
    const { accountId, key, userId } = await accountWithKey();
    const { generation_id } = expectSuccess(
      await createImage(key, { generation_prompt: "a lighthouse at dusk", generation_output_number: 2 }),
      202,
    );
    await waitForStatus(key, generation_id, ["succeeded"]);

    const detail = await as(userId).get({ accountId, generationId: generation_id });
    expect(detail.record.generation_status).toBe("succeeded");
    expect(detail.record.generation_output_file).toHaveLength(2);
    for (const url of detail.record.generation_output_file) expect(url).toMatch(/\/files\/.+\?expires=\d+&signature=[0-9a-f]{64}$/);
    expect(detail.attempts).toEqual([
      expect.objectContaining({ attempt_number: 1, provider: detail.record.generation_provider_used, outcome: "succeeded", wasted: false }),
    ]);
    expect(detail.ledger.map((entry) => entry.type)).toEqual(["reserve", "charge"]);
    expect(detail.parameters).toMatchObject({ generation_prompt: "a lighthouse at dusk", generation_output_number: 2 });

    // The gallery's thumbnails are the same signed links, and they serve the image.
    const [listed] = (await as(userId).list({ accountId })).generations;
    expect(listed?.generation_output_file).toHaveLength(2);
    const image = await fetch(listed!.generation_output_file[0]!);
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toMatch(/^image\//);
  });
});

describe("generations router: filters and cursor paging", () => {
  it("filters by status, model and creation day, and pages by cursor without gaps or repeats", async () => {
    const { accountId, userId } = await createTestAccount();
    const day = (date: string, hour: number) => new Date(`${date}T${String(hour).padStart(2, "0")}:00:00Z`);
    const ids = {
      a: await insertGeneration(accountId, { status: "succeeded", createdAt: day("2026-03-01", 10) }),
      b: await insertGeneration(accountId, { status: "failed", createdAt: day("2026-03-02", 0) }),
      c: await insertGeneration(accountId, {
        status: "succeeded",
        model: "black-forest-labs/flux-schnell",
        createdAt: day("2026-03-02", 23),
      }),
      d: await insertGeneration(accountId, { status: "canceled", createdAt: day("2026-03-03", 12) }),
      e: await insertGeneration(accountId, { status: "succeeded", createdAt: day("2026-03-04", 12) }),
    };
    const list = (filters: Omit<Parameters<ReturnType<typeof as>["list"]>[0], "accountId">) => as(userId).list({ accountId, ...filters });
    const idsOf = async (filters: Parameters<typeof list>[0]) => (await list(filters)).generations.map((row) => row.generation_id);

    expect(await idsOf({})).toEqual([ids.e, ids.d, ids.c, ids.b, ids.a]);
    expect(await idsOf({ status: "succeeded" })).toEqual([ids.e, ids.c, ids.a]);
    expect(await idsOf({ model: "black-forest-labs/flux-schnell" })).toEqual([ids.c]);
    expect(await idsOf({ createdFrom: "2026-03-02", createdTo: "2026-03-02" })).toEqual([ids.c, ids.b]);
    expect(await idsOf({ createdFrom: "2026-03-03" })).toEqual([ids.e, ids.d]);
    expect(await idsOf({ createdTo: "2026-03-01" })).toEqual([ids.a]);
    expect(await idsOf({ status: "succeeded", createdFrom: "2026-03-02", model: "darkroom/lumen-image" })).toEqual([ids.e]);
    expect(await as(userId).models({ accountId })).toEqual(["black-forest-labs/flux-schnell", "darkroom/lumen-image"]);

    // Two a page; a row added meanwhile (newer) does not shift the later pages.
    const first = await list({ limit: 2 });
    expect(first.generations.map((row) => row.generation_id)).toEqual([ids.e, ids.d]);
    await insertGeneration(accountId, { createdAt: day("2026-03-05", 12) });
    const second = await list({ limit: 2, cursor: first.nextCursor });
    expect(second.generations.map((row) => row.generation_id)).toEqual([ids.c, ids.b]);
    const third = await list({ limit: 2, cursor: second.nextCursor });
    expect(third.generations.map((row) => row.generation_id)).toEqual([ids.a]);
    expect(third.nextCursor).toBeNull();

    // Paging keeps the filter.
    const succeeded = await list({ status: "succeeded", limit: 1 });
    expect(
      (await list({ status: "succeeded", limit: 1, cursor: succeeded.nextCursor })).generations.map((row) => row.generation_id),
    ).toEqual([ids.e]);
  });

  it("covers every generation exactly once, with ties on created_at and generations created between pages", async () => {
    const { accountId, userId } = await createTestAccount();
    const at = (minutesAgo: number) => new Date(Date.now() - 3_600_000 - minutesAgo * 60_000);
    for (const minutesAgo of [1, 2, 2, 2, 2, 3, 4]) await insertGeneration(accountId, { createdAt: at(minutesAgo) });
    await insertGeneration(accountId, { createdAt: at(2), status: "failed" });
    const list = (filters: Omit<Parameters<ReturnType<typeof as>["list"]>[0], "accountId">) => as(userId).list({ accountId, ...filters });
    for (const filters of [{}, { status: "succeeded" as const }]) {
      const expected = (await list({ ...filters, limit: 100 })).generations.map((row) => row.generation_id);
      expect(expected).toHaveLength("status" in filters ? 7 : 8);
      const read = await readEveryPage(
        (cursor) => list({ ...filters, limit: 2, cursor }),
        (page) => ({ ids: page.generations.map((row) => row.generation_id), next: page.nextCursor }),
        // Newer than every page read so far, so never in the later ones (failed: not in the succeeded list's expectation).
        () => insertGeneration(accountId, { createdAt: new Date(), status: "failed" }),
      );
      expectEveryRowOnce(read, expected, 2);
    }
  });

  it("refuses inputs outside their limits with ERR1001", async () => {
    const { accountId, userId } = await createTestAccount();
    const bad = [
      { limit: 0 },
      { limit: 101 },
      { status: "done" },
      { createdFrom: "yesterday" },
      { createdFrom: "2026-03-02", createdTo: "2026-03-01" },
      { model: "x".repeat(201) },
      { cursor: "x".repeat(201) },
      { cursor: "not-a-cursor" },
    ];
    for (const filters of bad) await expectCode(as(userId).list({ accountId, ...(filters as object) }), "ERR1001");
  });
});
