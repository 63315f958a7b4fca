import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { env } from "@/server/base/env";
import { DATABASE_RETRY_AFTER_SECONDS } from "@/server/base/error-table";
import { accountWithKey } from "@/tests/support/fixtures";
import { startSecondInstance, type SecondInstance } from "@/tests/support/second-instance";
import { overTcp, startTcpProxy, type TcpProxy } from "@/tests/support/tcp-proxy";
import { until } from "@/tests/support/until";

// PostgreSQL unreachable: an app instance of this suite's own reaches the test database through a
// TCP proxy in this process, which the suite cuts (open connections reset, new ones refused, as a
// stopped PostgreSQL does). Meanwhile every /v1 route answers 503 ERR3001 with Retry-After and
// `details.cause: "database_unreachable"`, health (readiness) included, never 500 ERR5000; once the
// proxy is back, the same requests succeed.

let proxy: TcpProxy;
let instance: SecondInstance;
let key: string;

beforeAll(async () => {
  const database = new URL(env().DATABASE_URL as string);
  proxy = await startTcpProxy({ host: database.hostname, port: Number(database.port || 5432) });
  instance = await startSecondInstance({ DATABASE_URL: overTcp(database, proxy.port) });
  ({ key } = await accountWithKey());
}, 120_000);

afterAll(async () => {
  await proxy?.up().catch(() => {});
  await instance?.stop();
  await proxy?.close();
});

type Reply = {
  status: number;
  retryAfter: string | null;
  body: { status: string; error?: { code: string; type: string; retryable: boolean; details: Record<string, unknown> } };
};

async function call(path: string, init: { method?: string; body?: unknown } = {}): Promise<Reply> {
  const response = await fetch(`${instance.baseUrl}${path}`, {
    method: init.method ?? "GET",
    headers: { authorization: `Bearer ${key}`, ...(init.body ? { "content-type": "application/json" } : {}) },
    body: init.body ? JSON.stringify(init.body) : undefined,
  });
  return { status: response.status, retryAfter: response.headers.get("retry-after"), body: (await response.json()) as Reply["body"] };
}

const routes: Array<[string, { method?: string; body?: unknown }]> = [
  ["/v1/status", {}],
  ["/v1/generate/image/darkroom/lumen-image", { method: "POST", body: { generation_prompt: "during the outage" } }],
  ["/v1/content/list", {}],
  ["/v1/user/account", {}],
  ["/v1/health/inference/models", {}],
  ["/v1/health/inference/providers", {}],
  ["/v1/health/storage", {}],
];

describe("the database unreachable", () => {
  it("answers 503 ERR3001 with Retry-After on every /v1 route, health included, then recovers", async () => {
    for (const [path] of routes.filter(([, init]) => !init.method)) expect((await call(path)).status, path).toBe(200);

    await proxy.down();
    for (const [path, init] of routes) {
      const reply = await call(path, init);
      expect(reply.status, path).toBe(503);
      expect(reply.retryAfter, path).toBe(String(DATABASE_RETRY_AFTER_SECONDS));
      expect(reply.body.error, path).toMatchObject({
        code: "ERR3001",
        type: "service_paused",
        retryable: true,
        details: { cause: "database_unreachable" },
      });
    }

    await proxy.up();
    await until(async () => (await call("/v1/status")).status === 200, "GET /v1/status answering 200 once the database is back");
    for (const [path] of routes.filter(([, init]) => !init.method)) expect((await call(path)).status, path).toBe(200);
  }, 90_000);

  it("creates in flight when the connections are cut answer 202, 429 or 503 ERR3001, never 500", async () => {
    const create = (index: number) =>
      call("/v1/generate/image/darkroom/lumen-image", { method: "POST", body: { generation_prompt: `burst ${index}` } });
    // Cut once the first answers are back, so the rest are at every stage of their create.
    let answered = 0;
    const burst = Promise.all(Array.from({ length: 40 }, (_, index) => create(index).finally(() => (answered += 1))));
    await until(() => answered >= 3, "three creates of the burst answered");
    await proxy.down();
    const replies = await burst;
    const during = await create(40);
    await proxy.up();
    const counts = new Map<number, number>();
    for (const reply of [...replies, during]) counts.set(reply.status, (counts.get(reply.status) ?? 0) + 1);
    console.log(`creates around the cut: ${[...counts].map(([status, count]) => `${status}×${count}`).join(", ")}`);
    expect(during.status).toBe(503);
    for (const reply of [...replies, during]) {
      expect([202, 429, 503], JSON.stringify(reply.body)).toContain(reply.status);
      if (reply.status === 503) {
        expect(reply.body.error).toMatchObject({ code: "ERR3001", retryable: true, details: { cause: "database_unreachable" } });
        expect(reply.retryAfter).toBe(String(DATABASE_RETRY_AFTER_SECONDS));
      }
    }
    await until(async () => (await call("/v1/status")).status === 200, "GET /v1/status answering 200 once the database is back");
  }, 90_000);
});
