import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ownServer } from "@/tests/support/own-server";
import { ofGeneration, openSse, type SseEvent } from "@/tests/support/sse-client";

// Last-Event-ID across a restart of the server (issue #31): events come from PostgreSQL, so a
// client that reconnects to the restarted server with the last id it read gets every later event,
// once, in order. On a server of its own: restarting the shared test app would stop every suite.

const server = ownServer("live-restart");

beforeAll(() => server.start(), 120_000);
afterAll(() => server.dispose(), 60_000);

async function create(prompt: string): Promise<string> {
  const reply = await fetch(`${server.baseUrl()}/v1/generate/image/darkroom/lumen-image`, {
    method: "POST",
    headers: { authorization: `Bearer ${server.demoKey()}`, "content-type": "application/json" },
    body: JSON.stringify({ generation_prompt: prompt, generation_provider_order: "local" }),
  });
  expect(reply.status).toBe(202);
  return ((await reply.json()) as { data: { generation_id: string } }).data.generation_id;
}

const ended = (generationId: string) => (event: SseEvent) =>
  ofGeneration(generationId)(event) && ["generation.completed", "generation.failed", "generation.canceled"].includes(event.event);

describe("Last-Event-ID across a restart", () => {
  it("resumes on the restarted server with no gap and no duplicate", async () => {
    const key = server.demoKey();
    const before = await openSse("/v1/content/events", { key, base: server.baseUrl() });
    const first = await create("before the restart");
    await before.waitFor(ended(first));
    const second = await create("[local:slow=1500] across the restart");
    const processing = await before.waitFor((event) => ofGeneration(second)(event) && event.event === "generation.processing");
    before.close();
    const seen = before.events.slice(0, before.events.indexOf(processing) + 1);

    await server.stop();
    await server.start();

    const resumed = await openSse("/v1/content/events", { key, base: server.baseUrl(), lastEventId: processing.id! });
    expect(resumed.status).toBe(200);
    const third = await create("after the restart");
    await resumed.waitFor(ended(second));
    await resumed.waitFor(ended(third));
    resumed.close();

    // The whole history, read from the start: what the two connections got, together, in order.
    const history = await openSse("/v1/content/events?last_event_id=0", { key, base: server.baseUrl() });
    await history.waitFor(ended(third));
    history.close();
    const together = [...seen, ...resumed.events].map((event) => event.id);
    const described = (events: SseEvent[]) => events.map((event) => `${event.id}:${event.event}`).join(" ");
    expect(together, `seen ${described(seen)} | resumed ${described(resumed.events)} | history ${described(history.events)}`).toEqual(
      history.events.map((event) => event.id).slice(0, together.length),
    );
    expect(new Set(together).size).toBe(together.length);
    expect(resumed.events.filter(ofGeneration(third)).map((event) => event.event)[0]).toBe("generation.created");
  }, 120_000);
});
