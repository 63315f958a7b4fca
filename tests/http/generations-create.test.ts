import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "@/server/db";
import { reserveCredits } from "@/server/credits/reserve-credits";
import { api, expectError, expectSuccess } from "@/tests/support/http";
import { accountWithKey, awayFromWindowEdge } from "@/tests/support/fixtures";
import { createImage, waitForStatus } from "@/tests/support/generations";
import { inTransaction } from "@/server/transaction";

// Create: validation, idempotency, concurrency caps and the money race (issue: generations).

describe("create validation", () => {
  it("names the offending field for each kind of bad body", async () => {
    const { key } = await accountWithKey();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ generation_prompt: "x", generation_colour: "red" }, "generation_colour"],
      [{ generation_prompt: "x", generation_ratio: "5:7" }, "generation_ratio"],
      [{ generation_prompt: "x", generation_output_number: 9 }, "generation_output_number"],
      [{ generation_ratio: "1:1" }, "generation_prompt"],
      [{ generation_prompt: "x", generation_duration: 4 }, "generation_duration"],
      [{ generation_prompt: "x", generation_provider_order: "replicate" }, "generation_provider_order"],
      [{ generation_prompt: "x", generation_input_file: ["ftp://example.com/a.png"] }, "generation_input_file[0]"],
    ];
    for (const [body, field] of cases) {
      const error = expectError(await createImage(key, body), "ERR1001");
      expect(
        error.details.fields.map((entry: any) => entry.field),
        JSON.stringify(body),
      ).toContain(field);
    }
  });

  it("refuses a video model on the image route and the reverse", async () => {
    const { key } = await accountWithKey();
    const onImage = expectError(await createImage(key, { generation_prompt: "x" }, {}, "darkroom/lumen-video"), "ERR1001");
    expect(onImage.details.fields[0].field).toBe("model_identifier");
    const onVideo = expectError(await api("/v1/generate/video/darkroom/lumen-image", { key, method: "POST", body: { generation_prompt: "x" } }), "ERR1001");
    expect(onVideo.details.fields[0].field).toBe("model_identifier");
  });

  it("answers unknown models, bad JSON, oversized bodies and short balances in the envelope", async () => {
    const { key } = await accountWithKey();
    expectError(await createImage(key, { generation_prompt: "x" }, {}, "nobody/nothing"), "ERR1012");
    expectError(await api("/v1/generate/image/darkroom/lumen-image", { key, method: "POST", rawBody: "{not json" }), "ERR1001");
    expectError(await api("/v1/generate/image/darkroom/lumen-image", { key, method: "POST", rawBody: "[1,2]" }), "ERR1001");
    expectError(await api("/v1/generate/image/darkroom/lumen-image", { key, method: "POST", rawBody: JSON.stringify({ generation_prompt: "x".repeat(300_000) }) }), "ERR1011");
    const short = expectError(await api("/v1/generate/video/google/veo-3", { key, method: "POST", body: { generation_prompt: "x", generation_duration: 8 } }), "ERR1004");
    expect(short.details).toMatchObject({ balance: 1 });
    expectError(await api("/v1/generate/image/darkroom/lumen-image", { key, method: "GET" }), "ERR1008");
  });
});

describe("Idempotency-Key", () => {
  it("replays the original response, refuses a different body, and flags the replay in the log", async () => {
    const { key, keyId } = await accountWithKey();
    const idem = `order-${randomUUID()}`;
    const first = await createImage(key, { generation_prompt: "once" }, { "idempotency-key": idem });
    expectSuccess(first, 202);
    const again = await createImage(key, { generation_prompt: "once" }, { "idempotency-key": idem });
    expect(again.status).toBe(202);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get("idempotency-replayed")).toBe("true");
    expect(first.headers.get("idempotency-replayed")).toBeNull();
    expect(await db.generation.count({ where: { apiKeyId: keyId } })).toBe(1);
    const logged = await db.requestLog.findMany({ where: { apiKeyId: keyId, endpoint: "/v1/generate/image/{model_identifier}" }, orderBy: { createdAt: "asc" } });
    expect(logged.map((row) => row.idempotentReplay)).toEqual([false, true]);

    const conflict = await createImage(key, { generation_prompt: "twice" }, { "idempotency-key": idem });
    expectError(conflict, "ERR2015");
  });

  it("answers ERR2016 while the original is still running, and ERR2014 for a malformed key", async () => {
    const { key, accountId } = await accountWithKey();
    const idem = `running-${randomUUID()}`;
    const body = { generation_prompt: "in progress" };
    const { requestHash } = await import("@/server/http/idempotency");
    await db.idempotencyRecord.create({ data: { accountId, key: idem, requestHash: requestHash({ kind: "image", model: "darkroom/lumen-image", body }), requestId: randomUUID() } });
    expectError(await createImage(key, body, { "idempotency-key": idem }), "ERR2016");
    expectError(await createImage(key, body, { "idempotency-key": "has spaces" }), "ERR2014");
    expectError(await createImage(key, body, { "idempotency-key": "x".repeat(256) }), "ERR2014");
  });

  it("makes one generation and one reservation from concurrent duplicates", async () => {
    const { key, keyId } = await accountWithKey();
    const idem = `dup-${randomUUID()}`;
    const replies = await Promise.all(Array.from({ length: 10 }, () => createImage(key, { generation_prompt: "dup" }, { "idempotency-key": idem })));
    const accepted = replies.filter((reply) => reply.status === 202);
    expect(accepted.length).toBeGreaterThanOrEqual(1);
    for (const reply of replies) expect([202, 409]).toContain(reply.status);
    expect(new Set(accepted.map((reply) => reply.body.data.generation_id)).size).toBe(1);
    const generations = await db.generation.findMany({ where: { apiKeyId: keyId } });
    expect(generations).toHaveLength(1);
    expect(await db.ledgerEntry.count({ where: { generationId: generations[0]!.id, type: "reserve" } })).toBe(1);
  });
});

describe("limits", () => {
  it("caps in-flight generations per media kind at the plan limit (ERR1009)", async () => {
    const { key } = await accountWithKey({ plan: "free" });
    const slow = { generation_prompt: "hold [local:slow=4000]", generation_provider_order: "local" };
    const first = expectSuccess(await createImage(key, slow), 202);
    const second = expectSuccess(await createImage(key, slow), 202);
    const third = expectError(await createImage(key, slow), "ERR1009");
    expect(third.details).toMatchObject({ media_kind: "image", limit: 2, in_flight: 2 });
    // Video is counted apart.
    expectSuccess(await api("/v1/generate/video/darkroom/lumen-video", { key, method: "POST", body: { generation_prompt: "v", generation_duration: 2 } }), 202);
    for (const id of [first.generation_id, second.generation_id]) await api(`/v1/content/generation/cancel/${id}`, { key, method: "POST" });
    expectSuccess(await createImage(key, { generation_prompt: "room again" }), 202);
  });

  it("accepts exactly 50 of 200 concurrent creates against a balance for 50, and the ledger sums to the balance", async () => {
    const { key, accountId } = await accountWithKey({ plan: "enterprise" });
    // Bring the 1.000 welcome balance to 0.100 = 50 × 0.002 through a real reservation.
    const holder = await db.generation.create({
      data: { accountId, region: "us", mediaKind: "image", modelIdentifier: "darkroom/lumen-image", status: "succeeded", estimatedCost: "0.900", providerOrder: [] },
    });
    await inTransaction((tx) => reserveCredits(tx, { accountId, generationId: holder.id, amountMillis: 900, modelIdentifier: "darkroom/lumen-image", description: "test hold" }));
    await awayFromWindowEdge(30);

    const replies = await Promise.all(Array.from({ length: 200 }, (_, index) => createImage(key, { generation_prompt: `race ${index}`, generation_provider_order: "local" })));
    const byStatus: Record<string, number> = {};
    for (const reply of replies) byStatus[`${reply.status} ${reply.body.error?.code ?? ""}`.trim()] = (byStatus[`${reply.status} ${reply.body.error?.code ?? ""}`.trim()] ?? 0) + 1;
    expect(byStatus).toEqual({ "202": 50, "402 ERR1004": 150 });
    for (const reply of replies.filter((reply) => reply.status === 402)) expect(reply.body.error.code).toBe("ERR1004");

    const account = await db.account.findUniqueOrThrow({ where: { id: accountId } });
    expect(Number(account.creditBalance)).toBe(0);
    const entries = await db.ledgerEntry.findMany({ where: { accountId } });
    const sum = entries.reduce((total, entry) => total + (entry.type === "add" || entry.type === "refund" ? 1 : entry.type === "reserve" ? -1 : 0) * Math.round(Number(entry.amount) * 1000), 0);
    expect(sum).toBe(0);

    // Let them finish: every reservation is charged, the balance stays at zero.
    for (const reply of replies.filter((reply) => reply.status === 202)) await waitForStatus(key, reply.body.data.generation_id, undefined, 60_000);
    const after = await db.ledgerEntry.groupBy({ by: ["type"], where: { accountId }, _count: true });
    expect(Object.fromEntries(after.map((row) => [row.type, row._count]))).toEqual({ add: 1, reserve: 51, charge: 50 });
  }, 120_000);
});

describe("list and legacy forms", () => {
  it("lists newest first with total, limit and offset beside data", async () => {
    const { key } = await accountWithKey();
    const ids: string[] = [];
    for (let index = 0; index < 3; index += 1) ids.push(expectSuccess(await createImage(key, { generation_prompt: `list ${index}` }), 202).generation_id);
    const page = await api("/v1/content/list?limit=2&offset=0", { key });
    const data = expectSuccess(page);
    expect(page.body).toMatchObject({ total: 3, limit: 2, offset: 0 });
    expect(data.generations.map((record: any) => record.generation_id)).toEqual([ids[2], ids[1]]);
    const rest = await api("/v1/content/list?limit=2&offset=2", { key });
    expect(expectSuccess(rest).generations.map((record: any) => record.generation_id)).toEqual([ids[0]]);
    expect(expectSuccess(await api("/v1/content/list", { key })).generations).toHaveLength(3);
    for (const query of ["limit=0", "limit=101", "offset=-1", "limit=abc"]) {
      expectError(await api(`/v1/content/list?${query}`, { key }), "ERR1001");
    }
    for (const legacy of ["/v1/list/image", "/v1/data/list/image", "/api/v1/content/list"]) {
      const reply = await api(`${legacy}?limit=1`, { key });
      expect(expectSuccess(reply).generations[0].generation_id).toBe(ids[2]);
      expect(reply.body.total).toBe(3);
    }
  });

  it("serves POST and GET /v1/image-generation/... as the create and read routes", async () => {
    const { key } = await accountWithKey();
    const data = expectSuccess(await api("/v1/image-generation/darkroom/lumen-image", { key, method: "POST", body: { generation_prompt: "legacy" } }), 202);
    const record = await waitForStatus(key, data.generation_id);
    const legacy = expectSuccess(await api(`/v1/image-generation/${data.generation_id}`, { key }));
    expect(legacy.generation_id).toBe(record.generation_id);
    expect(legacy.generation_status).toBe("succeeded");
  });
});
