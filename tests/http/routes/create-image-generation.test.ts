import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "@/server/base/db";
import { reserveCredits } from "@/server/credits/reserve-credits";
import { requestHash } from "@/server/edge/http/idempotency";
import { createImageGeneration, getGeneration } from "@/server/edge/http/operations/generations";
import { inTransaction } from "@/server/base/transaction";
import { OPERATOR } from "@/server/base/account-scope";
import { rotateApiKey } from "@/server/keys/rotate-key";
import { setKeySpendLimit } from "@/server/spend/set-key-spend-limit";
import { accountWithKey, awayFromWindowEdge, createTestKey } from "@/tests/support/fixtures";
import { cancel, createImage, createVideo, waitForStatus } from "@/tests/support/generations";
import { api, baseUrl, callOperation, errorCodeOf, expectError, expectSuccess, invalidFields } from "@/tests/support/http";
import { whenLogged } from "@/tests/support/request-logs";
import { startSecondInstance } from "@/tests/support/second-instance";

// POST /v1/generate/image/{model_identifier} (createImageGeneration): validation, idempotency,
// concurrency caps and the money race. What a generation does after the 202 is in
// generation-lifecycle.test.ts.

const CREATE_PATH = "/v1/generate/image/darkroom/lumen-image";

describe("202", () => {
  it("replays the original response for a repeated Idempotency-Key, and flags the replay in the log", async () => {
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
    const logged = await whenLogged(
      () =>
        db.requestLog.findMany({
          where: { apiKeyId: keyId, endpoint: "/v1/generate/image/{model_identifier}" },
          orderBy: { createdAt: "asc" },
        }),
      2,
    );
    expect(logged.map((row) => row.idempotentReplay)).toEqual([false, true]);
  });

  it("binds an Idempotency-Key to the API key: another key of the account runs its own request, a rotated successor replays", async () => {
    const { key, keyId, accountId } = await accountWithKey();
    const idem = `shared-${randomUUID()}`;
    const body = { generation_prompt: "one key's order" };
    const first = expectSuccess(await createImage(key, body, { "idempotency-key": idem }), 202);

    // A key over its spend limit is refused on its own terms, never served the other key's 202.
    const capped = await createTestKey(accountId, { name: "capped" });
    await inTransaction((tx) =>
      setKeySpendLimit(tx, OPERATOR, { keyId: capped.apikey_id, limitMillis: 1, period: "day", actor: "system" }),
    );
    const refused = await createImage(capped.key, body, { "idempotency-key": idem });
    expectError(refused, "ERR1014");
    expect(refused.headers.get("idempotency-replayed")).toBeNull();

    const other = await createTestKey(accountId, { name: "other" });
    const own = await createImage(other.key, body, { "idempotency-key": idem });
    expect(own.headers.get("idempotency-replayed")).toBeNull();
    expect(expectSuccess(own, 202).generation_id).not.toBe(first.generation_id);
    const again = await createImage(other.key, body, { "idempotency-key": idem });
    expect(again.headers.get("idempotency-replayed")).toBe("true");
    expect(again.body).toEqual(own.body);

    const rotated = await inTransaction((tx) => rotateApiKey(tx, OPERATOR, { keyId, actor: "system" }));
    const successor = await createImage(rotated.key, body, { "idempotency-key": idem });
    expect(successor.headers.get("idempotency-replayed")).toBe("true");
    expect(expectSuccess(successor, 202).generation_id).toBe(first.generation_id);
    expect(await db.generation.count({ where: { accountId } })).toBe(2);
  });

  it("makes one generation and one reservation from concurrent duplicates", async () => {
    const { key, keyId } = await accountWithKey();
    const idem = `dup-${randomUUID()}`;
    const replies = await Promise.all(
      Array.from({ length: 10 }, () => createImage(key, { generation_prompt: "dup" }, { "idempotency-key": idem })),
    );
    const accepted = replies.filter((reply) => reply.status === 202);
    expect(accepted.length).toBeGreaterThanOrEqual(1);
    for (const reply of replies) expect([202, 409]).toContain(reply.status);
    expect(new Set(accepted.map((reply) => expectSuccess(reply, 202).generation_id)).size).toBe(1);
    const generations = await db.generation.findMany({ where: { apiKeyId: keyId } });
    expect(generations).toHaveLength(1);
    expect(await db.ledgerEntry.count({ where: { generationId: generations[0]!.id, type: "reserve" } })).toBe(1);
  });

  it("serves the legacy POST /v1/image-generation/{modelIdentifier}, readable through the legacy GET", async () => {
    const { key } = await accountWithKey();
    const [legacyCreate] = createImageGeneration.legacyPaths;
    const data = expectSuccess(
      await callOperation(createImageGeneration, {
        key,
        path: legacyCreate!.path,
        params: { modelIdentifier: "darkroom/lumen-image" },
        body: { generation_prompt: "legacy" },
      }),
      202,
    );
    const record = await waitForStatus(key, data.generation_id);
    const legacy = expectSuccess(
      await callOperation(getGeneration, { key, path: getGeneration.legacyPaths[0]!.path, params: { generation_id: data.generation_id } }),
    );
    expect(legacy.generation_id).toBe(record.generation_id);
    expect(legacy.generation_status).toBe("succeeded");
  });
});

describe("400", () => {
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
      expect(invalidFields(error), JSON.stringify(body)).toContain(field);
    }
  });

  it("caps every input file URL at 2,048 characters, naming the field and index (a record's size is bounded)", async () => {
    const { key } = await accountWithKey();
    const urlOf = (length: number) => `https://example.com/${"a".repeat(length - "https://example.com/".length)}`;
    for (const long of [urlOf(2049), urlOf(200_000)]) {
      const error = expectError(await createImage(key, { generation_prompt: "x", generation_input_file: [long] }), "ERR1001");
      expect(error.details.fields).toEqual([{ field: "generation_input_file[0]", message: "must be at most 2048 characters" }]);
    }
    const many = [urlOf(100), urlOf(100), urlOf(100), urlOf(2049)];
    const fourth = expectError(
      await createImage(key, { generation_prompt: "x", generation_input_file: many }, {}, "openai/gpt-image-1"),
      "ERR1001",
    );
    expect(invalidFields(fourth)).toEqual(["generation_input_file[3]"]);
    const tooMany = expectError(
      await createImage(
        key,
        { generation_prompt: "x", generation_input_file: Array.from({ length: 17 }, () => urlOf(100)) },
        {},
        "openai/gpt-image-1",
      ),
      "ERR1001",
    );
    expect(invalidFields(tooMany)).toEqual(["generation_input_file"]);
    expect(invalidFields(expectError(await createImage(key, { generation_prompt: "x".repeat(4001) }), "ERR1001"))).toEqual([
      "generation_prompt",
    ]);

    const atCap = expectSuccess(await createImage(key, { generation_prompt: "x", generation_input_file: [urlOf(2048)] }), 202);
    expect((await db.generation.findUniqueOrThrow({ where: { id: atCap.generation_id } })).inputFiles).toEqual([urlOf(2048)]);
    await cancel(key, atCap.generation_id);
  });

  it("refuses a video model on the image route", async () => {
    const { key } = await accountWithKey();
    const onImage = expectError(await createImage(key, { generation_prompt: "x" }, {}, "darkroom/lumen-video"), "ERR1001");
    expect(invalidFields(onImage)[0]).toBe("model_identifier");
  });

  it("refuses a body that is not JSON, or not an object", async () => {
    const { key } = await accountWithKey();
    expectError(await api(CREATE_PATH, { key, method: "POST", rawBody: "{not json" }), "ERR1001");
    expectError(await api(CREATE_PATH, { key, method: "POST", rawBody: "[1,2]" }), "ERR1001");
  });

  it("refuses a malformed Idempotency-Key (ERR2014)", async () => {
    const { key } = await accountWithKey();
    const body = { generation_prompt: "in progress" };
    expectError(await createImage(key, body, { "idempotency-key": "has spaces" }), "ERR2014");
    expectError(await createImage(key, body, { "idempotency-key": "x".repeat(256) }), "ERR2014");
  });
});

describe("402", () => {
  it("accepts exactly 50 of 200 concurrent creates against a balance for 50, and the ledger sums to the balance", async () => {
    const { key, accountId } = await accountWithKey({ plan: "enterprise" });
    // Bring the 1.000 welcome balance to 0.100 = 50 × 0.002 through a real reservation.
    const holder = await db.generation.create({
      data: {
        accountId,
        region: "us",
        mediaKind: "image",
        modelIdentifier: "darkroom/lumen-image",
        status: "succeeded",
        estimatedCost: "0.900",
        providerOrder: [],
      },
    });
    await inTransaction((tx) =>
      reserveCredits(tx, {
        accountId,
        generationId: holder.id,
        amountMillis: 900,
        modelIdentifier: "darkroom/lumen-image",
        description: "test hold",
      }),
    );
    await awayFromWindowEdge(30);

    const replies = await Promise.all(
      Array.from({ length: 200 }, (_, index) =>
        createImage(key, { generation_prompt: `race ${index}`, generation_provider_order: "local" }),
      ),
    );
    const byStatus: Record<string, number> = {};
    for (const reply of replies)
      byStatus[`${reply.status} ${errorCodeOf(reply) ?? ""}`.trim()] =
        (byStatus[`${reply.status} ${errorCodeOf(reply) ?? ""}`.trim()] ?? 0) + 1;
    expect(byStatus).toEqual({ "202": 50, "402 ERR1004": 150 });
    for (const reply of replies.filter((reply) => reply.status === 402)) expect(errorCodeOf(reply)).toBe("ERR1004");

    const account = await db.account.findUniqueOrThrow({ where: { id: accountId } });
    expect(Number(account.creditBalance)).toBe(0);
    const entries = await db.ledgerEntry.findMany({ where: { accountId } });
    const sum = entries.reduce(
      (total, entry) =>
        total +
        (entry.type === "add" || entry.type === "refund" ? 1 : entry.type === "reserve" ? -1 : 0) * Math.round(Number(entry.amount) * 1000),
      0,
    );
    expect(sum).toBe(0);

    // Let them finish: every reservation is charged, the balance stays at zero.
    for (const reply of replies.filter((reply) => reply.status === 202))
      await waitForStatus(key, expectSuccess(reply, 202).generation_id, undefined, 60_000);
    const after = await db.ledgerEntry.groupBy({ by: ["type"], where: { accountId }, _count: true });
    expect(Object.fromEntries(after.map((row) => [row.type, row._count]))).toEqual({ add: 1, reserve: 51, charge: 50 });
  }, 120_000);
});

describe("404", () => {
  it("answers an unknown model with ERR1012", async () => {
    const { key } = await accountWithKey();
    expectError(await createImage(key, { generation_prompt: "x" }, {}, "nobody/nothing"), "ERR1012");
  });

  it("answers a model whose every provider is turned off (CATALOG_DISABLED_PROVIDERS) with ERR1012, reserving nothing", async () => {
    const { key, accountId } = await accountWithKey();
    const instance = await startSecondInstance({ CATALOG_DISABLED_PROVIDERS: "local,local-backup" });
    try {
      const error = expectError(
        await api(CREATE_PATH, { key, base: instance.baseUrl, method: "POST", body: { generation_prompt: "x" } }),
        "ERR1012",
      );
      expect(error.message).toContain(
        "darkroom/lumen-image is turned off on this deployment: its providers local, local-backup are disabled",
      );
      expect(error.details).toEqual({
        model_identifier: "darkroom/lumen-image",
        model_status: "disabled",
        disabled_providers: ["local", "local-backup"],
      });
      expect(await db.generation.count({ where: { accountId } })).toBe(0);
    } finally {
      await instance.stop();
    }
  });
});

describe("405", () => {
  it("answers GET on the create route with ERR1008", async () => {
    const { key } = await accountWithKey();
    expectError(await api(CREATE_PATH, { key, method: "GET" }), "ERR1008");
  });
});

describe("409", () => {
  it("refuses a used Idempotency-Key with a different body (ERR2015)", async () => {
    const { key } = await accountWithKey();
    const idem = `order-${randomUUID()}`;
    expectSuccess(await createImage(key, { generation_prompt: "once" }, { "idempotency-key": idem }), 202);
    const conflict = await createImage(key, { generation_prompt: "twice" }, { "idempotency-key": idem });
    expectError(conflict, "ERR2015");
  });

  it("answers ERR2016 while the original is still running", async () => {
    const { key, keyId, accountId } = await accountWithKey();
    const idem = `running-${randomUUID()}`;
    const body = { generation_prompt: "in progress" };
    await db.idempotencyRecord.create({
      data: {
        accountId,
        apiKeyLineageId: keyId,
        key: idem,
        requestHash: requestHash({ kind: "image", model: "darkroom/lumen-image", body }),
        requestId: randomUUID(),
      },
    });
    expectError(await createImage(key, body, { "idempotency-key": idem }), "ERR2016");
  });
});

describe("413", () => {
  it("refuses an oversized body with ERR1011", async () => {
    const { key } = await accountWithKey();
    expectError(
      await api(CREATE_PATH, { key, method: "POST", rawBody: JSON.stringify({ generation_prompt: "x".repeat(300_000) }) }),
      "ERR1011",
    );
  });
});

describe("415", () => {
  it.each([
    "text/plain",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
    "application/json; charset=latin1",
    "application/xml",
  ])("refuses a %s body with ERR1015 unsupported_media_type, a client error, and reserves nothing", async (contentType) => {
    const { key, accountId } = await accountWithKey();
    const reply = await api(CREATE_PATH, {
      key,
      method: "POST",
      rawBody: JSON.stringify({ generation_prompt: "a lighthouse" }),
      headers: { "content-type": contentType },
    });
    expect(reply.status).toBe(415);
    const error = expectError(reply, "ERR1015");
    expect(error).toMatchObject({
      type: "unsupported_media_type",
      retryable: false,
      details: { content_type: contentType, supported: ["application/json"] },
    });
    expect(error.message).toContain("application/json");
    expect(await db.generation.count({ where: { accountId } })).toBe(0);
  });

  it("takes JSON with its charset, a +json type, or no Content-Type at all", async () => {
    for (const contentType of ["application/json; charset=utf-8", "APPLICATION/JSON", "application/vnd.darkroom+json", null]) {
      const { key } = await accountWithKey();
      const headers: Record<string, string> = contentType === null ? {} : { "content-type": contentType };
      const reply = await fetch(new URL(CREATE_PATH, baseUrl()), {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, ...headers },
        // A Blob without a type: fetch sends no Content-Type of its own.
        body: new Blob([JSON.stringify({ generation_prompt: "a lighthouse" })]),
      });
      expect(reply.status, String(contentType)).toBe(202);
    }
  });
});

describe("429", () => {
  it("caps in-flight generations per media kind at the plan limit (ERR1009)", async () => {
    const { key } = await accountWithKey({ plan: "free" });
    const slow = { generation_prompt: "hold [local:slow=4000]", generation_provider_order: "local" };
    const first = expectSuccess(await createImage(key, slow), 202);
    const second = expectSuccess(await createImage(key, slow), 202);
    const third = expectError(await createImage(key, slow), "ERR1009");
    expect(third.details).toMatchObject({ media_kind: "image", limit: 2, in_flight: 2 });
    // Video is counted apart.
    expectSuccess(await createVideo(key, { generation_prompt: "v", generation_duration: 2 }), 202);
    for (const id of [first.generation_id, second.generation_id]) await cancel(key, id);
    expectSuccess(await createImage(key, { generation_prompt: "room again" }), 202);
  });

  it("carries a whole-second Retry-After and claims no remaining capacity, keeping Limit and Reset", async () => {
    const { key } = await accountWithKey({ plan: "free" });
    const slow = { generation_prompt: "hold [local:slow=5000]", generation_provider_order: "local" };
    const held = [expectSuccess(await createImage(key, slow), 202), expectSuccess(await createImage(key, slow), 202)];
    const refused = await createImage(key, slow);
    const error = expectError(refused, "ERR1009");
    const retryAfter = refused.headers.get("retry-after");
    expect(retryAfter).toMatch(/^\d+$/);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    // lumen-image times out at 60 s: its slot is free by then at the latest.
    expect(Number(retryAfter)).toBeLessThanOrEqual(60);
    expect(error.details.retry_after_seconds).toBe(Number(retryAfter));
    expect(refused.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(refused.headers.get("x-ratelimit-limit")).toBe("10");
    expect(Number(refused.headers.get("x-ratelimit-reset"))).toBeGreaterThan(Date.now() / 1000 - 1);
    for (const generation of held) await cancel(key, generation.generation_id);
  }, 30_000);
});
