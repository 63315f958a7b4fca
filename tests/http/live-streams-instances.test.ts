import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountWithKey } from "@/tests/support/fixtures";
import { createImage } from "@/tests/support/generations";
import { expectSuccess } from "@/tests/support/http";
import { startSecondInstance, type SecondInstance } from "@/tests/support/second-instance";
import { ofGeneration, openSse, type SseEvent } from "@/tests/support/sse-client";

// Across instances (issue #31): a stream held on one instance sees a generation created on and run
// by another, because events come from PostgreSQL (the table and its NOTIFY), not from memory; and
// an id one instance sent resumes on the other (issue #43: ids are the same on every instance).

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

  it("resumes on the second instance after an id sent by the first (ids are the same everywhere)", async () => {
    const { key } = await accountWithKey();
    const first = await openSse("/v1/content/events", { key });
    const ids = [expectSuccess(await createImage(key, { generation_prompt: "one" }), 202).generation_id, expectSuccess(await createImage(key, { generation_prompt: "two" }), 202).generation_id];
    const done = (generationId: string) => (event: SseEvent) => ofGeneration(generationId)(event) && event.event === "generation.completed";
    await first.waitFor(done(ids[1]!));
    await first.waitFor(done(ids[0]!));
    first.close();
    const cut = first.events.findIndex((event) => event.event === "generation.created" && ofGeneration(ids[1]!)(event));
    const resumed = await openSse("/v1/content/events", { key, base: second.baseUrl, lastEventId: first.events[cut]!.id! });
    const tail = first.events.slice(cut + 1);
    await resumed.waitFor(() => resumed.events.length >= tail.length);
    resumed.close();
    expect(resumed.events.slice(0, tail.length).map((event) => `${event.id}:${event.event}`)).toEqual(tail.map((event) => `${event.id}:${event.event}`));
  });
});
