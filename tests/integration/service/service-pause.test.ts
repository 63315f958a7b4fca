import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ownServer } from "@/tests/support/own-server";
import { until } from "@/tests/support/until";

// The operator's pause, on a server of its own (pausing the shared test app would refuse every
// other suite's creates): creates answer ERR3001 with Retry-After, everything else works, the
// state shows in health and survives a restart, and resume lets creates through again.

const server = ownServer("pause");

type Reply = {
  status: number;
  headers: Headers;
  body: { status: string; data?: Record<string, unknown>; error?: { code: string; retryable: boolean; details: Record<string, unknown> } };
};

async function call(path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<Reply> {
  const response = await fetch(`${server.baseUrl()}${path}`, {
    method: init.method ?? "GET",
    headers: { authorization: `Bearer ${server.demoKey()}`, "content-type": "application/json", ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Reply["body"] };
}

const create = (prompt: string, headers: Record<string, string> = {}) =>
  call("/v1/generate/image/darkroom/lumen-image", { method: "POST", body: { generation_prompt: prompt }, headers });

/** Instances read the switch at most every two seconds: wait for the answer to change. */
const eventually = (probe: () => Promise<boolean>) => until(probe, "the switch's new state served", { everyMs: 250 });

beforeAll(() => server.start(), 120_000);
afterAll(() => server.dispose(), 60_000);

describe("service pause", () => {
  it("refuses creates with ERR3001 while paused, keeps the rest working, survives a restart, and resumes", async () => {
    const running = await create("[local:slow=3000] started before the pause");
    expect(running.status).toBe(202);
    const runningId = running.body.data!.generation_id as string;

    expect(await server.cli(["service:pause", "--reason", "database maintenance"])).toEqual({
      code: 0,
      body: { paused: true, reason: "database maintenance" },
    });
    await eventually(async () => (await create("after the pause")).status === 503);

    const refused = await create("after the pause", { "idempotency-key": "pause-test-1" });
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("60");
    expect(refused.body.error).toMatchObject({ code: "ERR3001", retryable: true, details: { reason: "database maintenance" } });

    // Reads and health work, and say the service is paused; the generation already running finishes.
    expect((await call("/v1/status")).status).toBe(200);
    expect((await call("/v1/health/cache")).body.data).toMatchObject({
      healthy: true,
      service_paused: true,
      service_paused_reason: "database maintenance",
    });
    await eventually(async () => (await call(`/v1/content/${runningId}`)).body.data?.generation_status === "succeeded");

    // The state is in the database: a restart keeps it.
    await server.stop();
    await server.start();
    expect((await create("after the restart")).body.error?.code).toBe("ERR3001");

    expect(await server.cli(["service:resume"])).toEqual({ code: 0, body: { paused: false, reason: null } });
    await eventually(async () => (await call("/v1/health/cache")).body.data?.service_paused === false);
    // The refused request released its Idempotency-Key: the same key now creates.
    const accepted = await create("after the pause", { "idempotency-key": "pause-test-1" });
    expect(accepted.status).toBe(202);
  }, 300_000);
});
