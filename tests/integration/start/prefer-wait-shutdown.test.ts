import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ownServer } from "@/tests/support/own-server";
import { until } from "@/tests/support/until";

// A create waiting for its generation (`Prefer: wait`) when the server is stopped (SIGTERM) answers
// with the record as it stands, before the connections close: the client keeps the generation id
// of work that has committed. On a server of its own: stopping the shared test app would stop
// every other suite.

const server = ownServer("prefer-wait-stop");

beforeAll(() => server.start(), 120_000);
afterAll(() => server.dispose(), 60_000);

describe("Prefer: wait at shutdown", () => {
  it("answers a waiting create with its in-flight record when the server stops", async () => {
    const waiting = fetch(`${server.baseUrl()}/v1/generate/image/darkroom/lumen-image`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.demoKey()}`, "content-type": "application/json", prefer: "wait=60" },
      body: JSON.stringify({ generation_prompt: "[local:slow=30000] stopped mid-wait", generation_provider_order: "local" }),
    });
    // Stop once the generation is at the provider (the create committed and its answer waits).
    await until(
      async () => {
        const list = (await (
          await fetch(`${server.baseUrl()}/v1/content/list`, { headers: { authorization: `Bearer ${server.demoKey()}` } })
        ).json()) as {
          data: { generations: Array<{ generation_prompt: string; generation_status: string }> };
        };
        return list.data.generations.some(
          (generation) => generation.generation_prompt.endsWith("stopped mid-wait") && generation.generation_status === "processing",
        );
      },
      "the generation processing",
      { everyMs: 100 },
    );
    const stopping = server.stop();
    const reply = await waiting;
    await stopping;
    expect(reply.status).toBe(202);
    const body = (await reply.json()) as {
      data: { generation_id: string; generation_record: { generation_id: string; generation_status: string } };
    };
    expect(body.data.generation_record.generation_id).toBe(body.data.generation_id);
    expect(body.data.generation_record.generation_status).toBe("processing");
  }, 90_000);
});
