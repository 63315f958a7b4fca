import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountWithKey } from "@/tests/support/fixtures";
import { createImage } from "@/tests/support/generations";
import { expectSuccess } from "@/tests/support/http";
import { startSecondInstance, type SecondInstance } from "@/tests/support/second-instance";
import { ofGeneration, openSse } from "@/tests/support/sse-client";

// Across instances (issue #31): a stream held on one instance sees a generation created on and run
// by another, because events come from PostgreSQL (the table and its NOTIFY), not from memory.

let second: SecondInstance;

beforeAll(async () => {
  second = await startSecondInstance();
}, 120_000);

afterAll(async () => {
  await second.stop();
}, 60_000);

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
});
