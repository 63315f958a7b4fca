import { describe, expect, it } from "vitest";
import { db } from "@/server/base/db";
import { accountWithKey } from "@/tests/support/fixtures";
import { api, requestIdOf } from "@/tests/support/http";
import { whenLogged } from "@/tests/support/request-logs";
import { startSecondInstance } from "@/tests/support/second-instance";

// Request-log rows and last_used_at are written in batches from a bounded in-memory buffer:
// within REQUEST_LOG_FLUSH_MS (50 ms by default) of the request, and on SIGTERM.

describe("batched request log", () => {
  it("writes a request's row and the key's last use shortly after the answer", async () => {
    const { key, keyId } = await accountWithKey();
    const reply = await api("/v1/status", { key });
    const row = await whenLogged(() => db.requestLog.findFirst({ where: { requestId: requestIdOf(reply) } }));
    expect(row.apiKeyId).toBe(keyId);
    const used = await whenLogged(() => db.apiKey.findFirst({ where: { id: keyId, lastUsedAt: { not: null } } }));
    expect(used.lastUsedAt!.getTime()).toBeGreaterThanOrEqual(row.createdAt.getTime());
  });

  it("writes one row per request of a burst, in one or a few batches", async () => {
    const { key, keyId } = await accountWithKey();
    const replies = await Promise.all(Array.from({ length: 40 }, () => api("/v1/status", { key })));
    const ids = replies.map(requestIdOf);
    const rows = await whenLogged(() => db.requestLog.findMany({ where: { apiKeyId: keyId } }), 40);
    expect(rows.map((row) => row.requestId).sort()).toEqual([...ids].sort());
  });

  it("writes a request whose query holds a NUL character, and the requests batched with it (R4 regression)", async () => {
    const { key, keyId } = await accountWithKey();
    // PostgreSQL refused the NUL, and with it the whole batch ("unsupported Unicode escape sequence").
    const replies = await Promise.all([
      api("/v1/content/list?note=%00nul", { key }),
      api("/v1/status", { key }),
      api("/v1/status?x=a%00b", { key }),
    ]);
    const rows = await whenLogged(() => db.requestLog.findMany({ where: { apiKeyId: keyId } }), 3);
    expect(rows.map((row) => row.requestId).sort()).toEqual(replies.map(requestIdOf).sort());
    const nul = rows.find((row) => row.requestId === requestIdOf(replies[0]!))!;
    expect(JSON.stringify(nul.query)).toContain("\uFFFD");
  });

  it("flushes what it holds when the server gets SIGTERM", async () => {
    // A flush interval longer than the test: only the shutdown can write these rows.
    const instance = await startSecondInstance({ REQUEST_LOG_FLUSH_MS: "60000" });
    try {
      const { key, keyId } = await accountWithKey();
      const ids: string[] = [];
      for (let index = 0; index < 5; index++) {
        const response = await fetch(`${instance.baseUrl}/v1/status`, { headers: { authorization: `Bearer ${key}` } });
        expect(response.status).toBe(200);
        ids.push(response.headers.get("x-request-id") ?? "");
        await response.arrayBuffer();
      }
      expect(await db.requestLog.count({ where: { apiKeyId: keyId } })).toBe(0);
      await instance.stop();
      const rows = await db.requestLog.findMany({ where: { apiKeyId: keyId } });
      expect(rows.map((row) => row.requestId).sort()).toEqual([...ids].sort());
      expect((await db.apiKey.findUniqueOrThrow({ where: { id: keyId } })).lastUsedAt).not.toBeNull();
    } finally {
      await instance.stop();
    }
  }, 150_000);
});
