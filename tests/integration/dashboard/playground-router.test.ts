import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findModel } from "@/server/catalog";
import { estimateCost } from "@/server/catalog/estimate";
import { db, disconnectDb } from "@/server/base/db";
import { registerExecutor, unregisterExecutor } from "@/server/base/events/executor-registry";
import { formatCredits } from "@/server/base/money";
import { PLAYGROUND_KEY_NAME } from "@/server/playground/playground-key";
import { setKeySpendLimit } from "@/server/spend/set-key-spend-limit";
import { ensureAuthSecret } from "@/server/start/secrets";
import { inTransaction } from "@/server/base/transaction";
import { accountScope } from "@/server/base/account-scope";
import { revokeApiKey } from "@/server/keys/revoke-key";
import { createCaller } from "@/tests/support/dashboard-caller";
import { recordingEventSink } from "@/tests/support/event-sink";
import { createTestAccount, createTestTeam } from "@/tests/support/fixtures";
import { expectTrpcError, expectTrpcInvalid, trpcFailure } from "@/tests/support/trpc-errors";

// The playground router through createCaller against the real database: who may run (a team
// setting, enforced here), and a run landing where an API create lands (generation, ledger
// reservation, activity with the user as actor, the account's Dashboard playground key,
// idempotency). Runs requested here are caught by a sink, so they stay pending; the e2e spec
// (e2e/playground.spec.ts) watches real ones finish.

const { sink } = recordingEventSink();
beforeAll(() => {
  registerExecutor(sink);
  ensureAuthSecret();
});
afterAll(async () => {
  unregisterExecutor(sink);
  await disconnectDb();
});

const MODEL = "darkroom/lumen-image";
const as = (userId: string | null) => createCaller({ userId }).playground;
const body = (prompt = "a lighthouse at dusk") => ({ generation_prompt: prompt, generation_ratio: "16:9" });
const key = () => crypto.randomUUID();

describe("playground router: who may run", () => {
  it("refuses a signed-out caller with ERR1002 and another account's member with ERR1006", async () => {
    const { accountId, member } = await createTestTeam();
    const outsider = await createTestAccount();
    await expectTrpcError(as(null).run({ accountId, identifier: MODEL, body: body(), idempotencyKey: key() }), "ERR1002");
    await expectTrpcError(as(null).estimate({ accountId, identifier: MODEL, body: body() }), "ERR1002");
    await expectTrpcError(as(outsider.userId).run({ accountId, identifier: MODEL, body: body(), idempotencyKey: key() }), "ERR1006");
    await expectTrpcError(as(outsider.userId).history({ accountId }), "ERR1006");
    // A run of this account, asked for from another account: not found there.
    const created = await as(member).run({ accountId, identifier: MODEL, body: body(), idempotencyKey: key() });
    await expectTrpcError(as(outsider.userId).get({ accountId: outsider.accountId, generationId: created.generation_id }), "ERR1006");
    await expectTrpcError(as(outsider.userId).cancel({ accountId: outsider.accountId, generationId: created.generation_id }), "ERR1006");
  });

  it("lets owners and members run by default; a member an owner left out is refused with the reason", async () => {
    const { accountId, owner, member } = await createTestTeam();
    expect((await as(member).access({ accountId })).refusal).toBeNull();

    await expectTrpcError(as(member).setRunRoles({ accountId, roles: ["owner"] }), "ERR1003");
    expect((await as(owner).setRunRoles({ accountId, roles: ["owner"] })).roles).toEqual(["primary_owner", "owner"]);

    const refused = await trpcFailure(as(member).run({ accountId, identifier: MODEL, body: body(), idempotencyKey: key() }));
    expect(refused.code).toBe("FORBIDDEN");
    expect(refused.apiError.code).toBe("ERR1003");
    expect(refused.apiError.message).toMatch(/only the primary owner and owners may run models from the dashboard; your role is member/);
    expect((await as(member).access({ accountId })).refusal).toBe(refused.apiError.message);
    expect((await as(member).estimate({ accountId, identifier: MODEL, body: body() })).refusal).toBe(refused.apiError.message);
    await expectTrpcError(
      as(member).compare({ accountId, idempotencyKey: key(), columns: [{ identifier: MODEL, body: body() }] }),
      "ERR1003",
    );
    expect(await db.generation.count({ where: { accountId } })).toBe(0);

    // The owner still runs; the change is in the activity feed with its author.
    await as(owner).run({ accountId, identifier: MODEL, body: body(), idempotencyKey: key() });
    const change = await db.activityEvent.findFirstOrThrow({ where: { accountId, action: "account.playground_roles_changed" } });
    expect(change.actor).toBe(owner);

    await expectTrpcInvalid(as(owner).setRunRoles({ accountId, roles: ["admin"] }), "roles");
    await as(owner).setRunRoles({ accountId, roles: ["owner", "member"] });
    await as(member).run({ accountId, identifier: MODEL, body: body(), idempotencyKey: key() });
  });
});

describe("playground router: a run is an ordinary generation", () => {
  it("lands in Generations, the ledger and the activity feed, attributed to the Dashboard playground key and the user", async () => {
    const { accountId, member } = await createTestTeam();
    const created = await as(member).run({ accountId, identifier: MODEL, body: body("a run from the dashboard"), idempotencyKey: key() });
    expect(created).not.toHaveProperty("key");

    const generation = await db.generation.findUniqueOrThrow({ where: { id: created.generation_id } });
    expect(generation).toMatchObject({
      accountId,
      status: "pending",
      modelIdentifier: MODEL,
      prompt: "a run from the dashboard",
      ratio: "16:9",
    });
    const listed = await createCaller({ userId: member }).generations.list({ accountId });
    expect(listed.generations.map((row) => row.generation_id)).toContain(created.generation_id);

    const model = findModel(MODEL)!;
    const price = estimateCost(model, { count: 1, ratio: "16:9" }).totalMillis;
    const reserve = await db.ledgerEntry.findFirstOrThrow({ where: { accountId, generationId: created.generation_id } });
    expect(reserve.type).toBe("reserve");
    expect(Number(reserve.amount)).toBeCloseTo(formatCredits(price));

    const started = await db.activityEvent.findFirstOrThrow({ where: { accountId, action: "generation.created" } });
    expect(started.actor).toBe(member);
    expect(started.metadata).toMatchObject({ generation_id: created.generation_id, source: "playground", model_identifier: MODEL });

    // The key made on the first run: listed as the playground's, never with a value, not rotatable.
    const keys = await createCaller({ userId: member }).keys.list({ accountId });
    const playgroundKey = keys.find((row) => row.playground);
    expect(playgroundKey).toMatchObject({ apikey_name: PLAYGROUND_KEY_NAME, state: "active" });
    expect(generation.apiKeyId).toBe(playgroundKey?.apikey_id);
    const { userId: primaryOwner } = (await db.membership.findFirstOrThrow({ where: { accountId, role: "primary_owner" } })) as {
      userId: string;
    };
    await expectTrpcInvalid(
      createCaller({ userId: primaryOwner }).keys.rotate({ accountId, keyId: playgroundKey!.apikey_id }),
      "apikey_id",
    );

    const history = await as(member).history({ accountId, comparisons: false });
    expect(history[0]).toMatchObject({
      generation_id: created.generation_id,
      model_identifier: MODEL,
      request: expect.objectContaining({ generation_prompt: "a run from the dashboard" }),
    });
    const view = await as(member).get({ accountId, generationId: created.generation_id });
    expect(view).toMatchObject({ cancelable: true, finished: false, cost_charged: null, total_time_ms: null });
  });

  it("starts one generation per Idempotency-Key, and refuses the same key for another request", async () => {
    const { accountId, member } = await createTestTeam();
    const idempotencyKey = key();
    const first = await as(member).run({ accountId, identifier: MODEL, body: body(), idempotencyKey });
    const again = await as(member).run({ accountId, identifier: MODEL, body: body(), idempotencyKey });
    expect(again.generation_id).toBe(first.generation_id);
    expect(await db.generation.count({ where: { accountId } })).toBe(1);
    const other = await trpcFailure(as(member).run({ accountId, identifier: MODEL, body: body("another"), idempotencyKey }));
    expect(other.apiError.code).toBe("ERR2015");
  });

  it("validates the body with the model's schema, naming the field", async () => {
    const { accountId, member } = await createTestTeam();
    await expectTrpcInvalid(
      as(member).run({ accountId, identifier: MODEL, body: { generation_prompt: "x", generation_ratio: "7:3" }, idempotencyKey: key() }),
      "generation_ratio",
    );
    await expectTrpcInvalid(
      as(member).run({ accountId, identifier: MODEL, body: { generation_prompt: "x", colour: "red" }, idempotencyKey: key() }),
      "colour",
    );
    const estimate = await as(member).estimate({ accountId, identifier: MODEL, body: { generation_ratio: "16:9" } });
    expect(estimate.can_run).toBe(false);
    expect(estimate.refusal).toMatch(/generation_prompt is required/);
    expect(
      (await trpcFailure(as(member).run({ accountId, identifier: "nobody/nothing", body: body(), idempotencyKey: key() }))).apiError.code,
    ).toBe("ERR1012");
  });

  it("prices the form's request as /v1 estimate does and says when the key's spend limit would refuse it", async () => {
    const { accountId, primaryOwner, member } = await createTestTeam();
    const four = { ...body(), generation_output_number: 4 };
    const estimate = await as(member).estimate({ accountId, identifier: MODEL, body: four });
    const model = findModel(MODEL)!;
    expect(estimate.cost_total).toBe(formatCredits(estimateCost(model, { count: 4, ratio: "16:9" }).totalMillis));
    expect(estimate).toMatchObject({ assets_count: 4, can_run: true, refusal: null, spend_remaining: null });

    await as(member).run({ accountId, identifier: MODEL, body: body(), idempotencyKey: key() });
    const playgroundKey = await db.apiKey.findFirstOrThrow({ where: { accountId, playground: true } });
    await inTransaction((tx) =>
      setKeySpendLimit(tx, accountScope(accountId), { keyId: playgroundKey.id, limitMillis: 1, period: "day", actor: primaryOwner }),
    );
    const limited = await as(member).estimate({ accountId, identifier: MODEL, body: four });
    expect(limited.can_run).toBe(false);
    expect(limited.refusal).toMatch(/Dashboard playground key's spend limit leaves 0 credits this day/);
    expect((await trpcFailure(as(member).run({ accountId, identifier: MODEL, body: four, idempotencyKey: key() }))).apiError.code).toBe(
      "ERR1014",
    );
  });

  it("stops runs once the playground key is revoked, saying how to start again", async () => {
    const { accountId, primaryOwner, member } = await createTestTeam();
    await as(member).run({ accountId, identifier: MODEL, body: body(), idempotencyKey: key() });
    const playgroundKey = await db.apiKey.findFirstOrThrow({ where: { accountId, playground: true } });
    await inTransaction((tx) => revokeApiKey(tx, accountScope(accountId), { keyId: playgroundKey.id, actor: primaryOwner }));
    const refused = await trpcFailure(as(member).run({ accountId, identifier: MODEL, body: body(), idempotencyKey: key() }));
    expect(refused.apiError.code).toBe("ERR1003");
    expect(refused.apiError.message).toMatch(/is revoked, so runs from the dashboard are stopped. Delete it/);
    expect((await as(member).estimate({ accountId, identifier: MODEL, body: body() })).refusal).toBe(refused.apiError.message);

    await createCaller({ userId: primaryOwner }).keys.delete({ accountId, keyId: playgroundKey.id });
    await as(member).run({ accountId, identifier: MODEL, body: body(), idempotencyKey: key() });
    expect(await db.apiKey.count({ where: { accountId, playground: true } })).toBe(1);
  });

  it("lets whoever may run cancel a playground run, refunded", async () => {
    const { accountId, member } = await createTestTeam();
    const created = await as(member).run({ accountId, identifier: MODEL, body: body(), idempotencyKey: key() });
    const canceled = await as(member).cancel({ accountId, generationId: created.generation_id });
    expect(canceled).toMatchObject({ generation_id: created.generation_id, generation_status: "canceled", credits_refunded: true });
    const view = await as(member).get({ accountId, generationId: created.generation_id });
    expect(view).toMatchObject({ finished: true, cost_charged: null });
    expect(view.credits_refunded).toBeGreaterThan(0);
    const cancelEvent = await db.activityEvent.findFirst({ where: { accountId, actor: member, action: { contains: "cancel" } } });
    expect(cancelEvent).not.toBeNull();
  });
});

describe("playground router: Compare", () => {
  it("starts each column as its own generation under one comparison, pinned to its provider", async () => {
    const { accountId, member } = await createTestTeam();
    const idempotencyKey = key();
    const columns = [
      { identifier: MODEL, body: { ...body(), generation_provider_order: "local" } },
      { identifier: "darkroom/lumen-video", body: { generation_prompt: "a lighthouse at dusk", generation_duration: 4 } },
    ];
    const started = await as(member).compare({ accountId, idempotencyKey, columns });
    expect(started.columns.map((column) => column.error)).toEqual([null, null]);
    const again = await as(member).compare({ accountId, idempotencyKey, columns });
    expect(again).toEqual(started);
    expect(await db.generation.count({ where: { accountId } })).toBe(2);

    const comparison = await as(member).comparison({ accountId, comparisonId: started.comparison_id });
    expect(comparison.columns.map((column) => [column.position, column.model_identifier])).toEqual([
      [0, MODEL],
      [1, "darkroom/lumen-video"],
    ]);
    expect(comparison.columns[0]?.view.record.generation_provider_order).toEqual(["local"]);
    expect(comparison).toMatchObject({ finished: false, summary: { fastest: [], cheapest: [] } });
    expect((await as(member).history({ accountId, comparisons: true })).map((run) => run.comparison_id)).toEqual([started.comparison_id]);
    await expectTrpcError(as(member).comparison({ accountId, comparisonId: crypto.randomUUID() }), "ERR1006");

    // Every column's body is checked before any starts.
    await expectTrpcInvalid(
      as(member).compare({
        accountId,
        idempotencyKey: key(),
        columns: [columns[0]!, { identifier: "darkroom/lumen-video", body: { generation_prompt: "x" } }],
      }),
      "generation_duration",
    );
    expect(await db.generation.count({ where: { accountId } })).toBe(2);
  });
});
