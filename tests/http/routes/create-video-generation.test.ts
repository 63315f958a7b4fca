import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "@/server/base/db";
import { accountWithKey, createTestAccount } from "@/tests/support/fixtures";
import { cancel, createVideo, waitForStatus } from "@/tests/support/generations";
import { api, expectError, expectSuccess, invalidFields } from "@/tests/support/http";

// POST /v1/generate/video/{model_identifier} (createVideoGeneration). The checks it shares with
// the image route are pinned there; these are the video route's own answers.

describe("202", () => {
  it("makes a real MP4 on the video route", async () => {
    const { key } = await accountWithKey();
    const data = expectSuccess(
      await createVideo(key, { generation_prompt: "waves", generation_duration: 2, generation_ratio: "16:9" }),
      202,
    );
    const record = await waitForStatus(key, data.generation_id, undefined, 60_000);
    expect(record.generation_status).toBe("succeeded");
    const file = await fetch(record.generation_output_file[0]!);
    expect(file.headers.get("content-type")).toBe("video/mp4");
    const bytes = Buffer.from(await file.arrayBuffer());
    expect(bytes.subarray(4, 8).toString("ascii")).toBe("ftyp");
  });
});

describe("400", () => {
  it("caps generation_input_file_last_content and generation_input_file at 2,048 characters", async () => {
    const { key } = await accountWithKey();
    const long = `https://example.com/${"a".repeat(2029)}`;
    const body = {
      generation_prompt: "x",
      generation_duration: 2,
      generation_input_file: [long],
      generation_input_file_last_content: long,
    };
    const error = expectError(await createVideo(key, body), "ERR1001");
    expect(error.details.fields).toEqual([
      { field: "generation_input_file[0]", message: "must be at most 2048 characters" },
      { field: "generation_input_file_last_content", message: "must be at most 2048 characters" },
    ]);
  });

  it("refuses an image model on the video route", async () => {
    const { key } = await accountWithKey();
    const onVideo = expectError(await createVideo(key, { generation_prompt: "x" }, {}, "darkroom/lumen-image"), "ERR1001");
    expect(invalidFields(onVideo)[0]).toBe("model_identifier");
  });
});

describe("402", () => {
  it("refuses a video the balance cannot pay for, with the balance in details", async () => {
    const { key } = await accountWithKey();
    const short = expectError(await createVideo(key, { generation_prompt: "x", generation_duration: 8 }, {}, "google/veo-3"), "ERR1004");
    expect(short.details).toMatchObject({ balance: 1 });
  });
});

describe("404", () => {
  it("answers an unknown model with ERR1012", async () => {
    const { key } = await accountWithKey();
    expectError(await createVideo(key, { generation_prompt: "x", generation_duration: 2 }, {}, "nobody/nothing"), "ERR1012");
  });
});

describe("409", () => {
  it("refuses a used Idempotency-Key with a different body (ERR2015)", async () => {
    const { key } = await accountWithKey();
    const idem = `video-${randomUUID()}`;
    const first = expectSuccess(
      await createVideo(key, { generation_prompt: "once", generation_duration: 2 }, { "idempotency-key": idem }),
      202,
    );
    expectError(await createVideo(key, { generation_prompt: "twice", generation_duration: 2 }, { "idempotency-key": idem }), "ERR2015");
    await cancel(key, first.generation_id);
  });
});

describe("413", () => {
  it("refuses an oversized body with ERR1011", async () => {
    const { key } = await accountWithKey();
    const rawBody = JSON.stringify({ generation_prompt: "x".repeat(300_000), generation_duration: 2 });
    expectError(await api("/v1/generate/video/darkroom/lumen-video", { key, method: "POST", rawBody }), "ERR1011");
  });
});

describe("429", () => {
  it("estimates Retry-After from the in-flight generation's model's typical run time", async () => {
    // History: lumen-video runs that took 20 s (in an account of their own). The typical time is
    // the median of the model's 200 most recent successful runs across every account, so the
    // history is 200 runs: other suites' quick videos on the shared database cannot move it.
    const history = await createTestAccount();
    const finishedAt = new Date();
    await db.generation.createMany({
      data: Array.from({ length: 200 }, () => ({
        accountId: history.accountId,
        region: "us" as const,
        mediaKind: "video" as const,
        modelIdentifier: "darkroom/lumen-video",
        status: "succeeded" as const,
        estimatedCost: "0.020",
        providerOrder: ["local"],
        metricsTotalTime: 20,
        completedAt: finishedAt,
      })),
    });

    const { key } = await accountWithKey({ plan: "free" });
    const held = expectSuccess(
      await createVideo(key, { generation_prompt: "hold [local:slow=8000]", generation_duration: 2, generation_provider_order: "local" }),
      202,
    );
    const refused = await createVideo(key, { generation_prompt: "one more", generation_duration: 2 });
    expectError(refused, "ERR1009");
    // 20 s typical, a second or so already spent: the slot frees in about 19 s.
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(15);
    expect(retryAfter).toBeLessThanOrEqual(20);
    expect(refused.headers.get("x-ratelimit-remaining")).toBe("0");
    await cancel(key, held.generation_id);
    await db.account.delete({ where: { id: history.accountId } });
  }, 30_000);
});
