import { afterAll, describe, expect, it } from "vitest";
import { createCaller } from "@/tests/support/dashboard-caller";
import { disconnectDb } from "@/server/base/db";
import { hashClientIp } from "@/server/base/net/client-ip-hash";
import { addTeamMember, createTestAccount, createTestKey } from "@/tests/support/fixtures";
import { insertRequestLog } from "@/tests/support/request-logs";
import { expectTrpcError, expectTrpcInvalid } from "@/tests/support/trpc-errors";

// The dashboard's request log through createCaller, against the real database: every member
// reads it, newest first with a stable cursor; each filter returns exactly its rows; another
// account's rows and key ids do not exist.

afterAll(disconnectDb);

const as = (userId: string | null) => createCaller({ userId }).requestLogs;

const MINUTE = 60_000;

/** An account with two keys and eight logged requests at known minutes (0 = newest). */
async function loggedAccount() {
  const { accountId, userId: primaryOwner } = await createTestAccount();
  const member = await addTeamMember(accountId, "member");
  const alpha = await createTestKey(accountId, { name: "alpha" });
  const beta = await createTestKey(accountId, { name: "beta", preset: "monitor" });
  const a = { id: alpha.apikey_id, name: alpha.apikey_name, prefix: alpha.apikey_prefix };
  const b = { id: beta.apikey_id, name: beta.apikey_name, prefix: beta.apikey_prefix };
  const base = Date.now() - 60 * MINUTE;
  const at = (minutesAgo: number) => new Date(base - minutesAgo * MINUTE);
  const rows = {
    m0: await insertRequestLog(accountId, a, { createdAt: at(0), statusCode: 200, endpoint: "/v1/status" }),
    m1: await insertRequestLog(accountId, b, {
      createdAt: at(1),
      statusCode: 403,
      errorCode: "ERR1003",
      endpoint: "/v1/status",
      keyStatus: "active",
    }),
    m2: await insertRequestLog(accountId, a, {
      createdAt: at(2),
      statusCode: 202,
      endpoint: "/v1/generate/image/{model_identifier}",
      method: "POST",
      idempotentReplay: true,
    }),
    m3: await insertRequestLog(accountId, a, {
      createdAt: at(3),
      statusCode: 503,
      errorCode: "ERR3001",
      endpoint: "/v1/generate/image/{model_identifier}",
      method: "POST",
    }),
    m4: await insertRequestLog(accountId, b, { createdAt: at(4), statusCode: 200, endpoint: "/v1/library/models" }),
    m5: await insertRequestLog(accountId, a, {
      createdAt: at(5),
      statusCode: 401,
      errorCode: "ERR1002",
      endpoint: "/v1/usage",
      keyStatus: "expired",
    }),
    m6: await insertRequestLog(accountId, a, { createdAt: at(6), statusCode: 200, endpoint: "/v1/usage", keyStatus: "rotated" }),
    m7: await insertRequestLog(accountId, b, { createdAt: at(7), statusCode: 429, errorCode: "ERR1005", endpoint: "/v1/library/models" }),
  };
  return { accountId, primaryOwner, member, alpha, beta, rows, at };
}

describe("request logs router", () => {
  it("lets a member read every field of each entry, newest first", async () => {
    const { accountId, member, alpha, rows } = await loggedAccount();
    const page = await as(member).list({ accountId });
    expect(page.data.map((entry) => entry.request_log_id)).toEqual(Object.values(rows));
    expect(page.next_cursor).toBeNull();
    expect(page.data[2]).toMatchObject({
      apikey_id: alpha.apikey_id,
      key_name: "alpha",
      key_prefix: alpha.apikey_prefix,
      key_state: "active",
      method: "POST",
      endpoint: "/v1/generate/image/{model_identifier}",
      query: { days: "7", api_key: "[redacted]" },
      status_code: 202,
      error_code: null,
      idempotent_replay: true,
      client_ip_hash: hashClientIp("198.51.100.7"),
      user_agent: "darkroom-tests/1.0",
      request_id: expect.stringMatching(/^req_/),
      created_at: expect.any(String),
    });
    expect(page.data[2]?.key_prefix).toHaveLength(9);
    expect(page.data.find((entry) => entry.request_log_id === rows.m5)?.key_state).toBe("expired");
    expect(await as(member).endpoints({ accountId })).toEqual([
      "/v1/generate/image/{model_identifier}",
      "/v1/library/models",
      "/v1/status",
      "/v1/usage",
    ]);
  });

  it("pages with a cursor without repeating or skipping rows, also when rows share a timestamp or arrive between pages", async () => {
    const { accountId, member, alpha, rows, at } = await loggedAccount();
    // Two more at the exact time of m3: ordered by id within the same millisecond.
    const a = { id: alpha.apikey_id, name: alpha.apikey_name, prefix: alpha.apikey_prefix };
    const twins = [await insertRequestLog(accountId, a, { createdAt: at(3) }), await insertRequestLog(accountId, a, { createdAt: at(3) })];
    const all = (await as(member).list({ accountId, limit: 100 })).data.map((entry) => entry.request_log_id);
    expect(all).toHaveLength(10);
    expect(new Set(all.slice(3, 6))).toEqual(new Set([rows.m3, ...twins]));

    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await as(member).list({ accountId, limit: 3, cursor });
      seen.push(...page.data.map((entry) => entry.request_log_id));
      cursor = page.next_cursor ?? undefined;
      // A request logged now is newer than every page: it never shows up in the later ones.
      if (pages++ === 0) await insertRequestLog(accountId, a, { createdAt: new Date() });
    } while (cursor);
    expect(pages).toBe(4);
    expect(seen).toEqual(all);
  });

  it("filters by key, status class, endpoint, error code and time range, alone and together", async () => {
    const { accountId, member, beta, rows, at } = await loggedAccount();
    const ids = async (filters: Omit<Parameters<ReturnType<typeof as>["list"]>[0], "accountId">) =>
      (await as(member).list({ accountId, ...filters })).data.map((entry) => entry.request_log_id);

    expect(await ids({ keyId: beta.apikey_id })).toEqual([rows.m1, rows.m4, rows.m7]);
    expect(await ids({ statusClass: "2xx" })).toEqual([rows.m0, rows.m2, rows.m4, rows.m6]);
    expect(await ids({ statusClass: "4xx" })).toEqual([rows.m1, rows.m5, rows.m7]);
    expect(await ids({ statusClass: "5xx" })).toEqual([rows.m3]);
    expect(await ids({ endpoint: "/v1/usage" })).toEqual([rows.m5, rows.m6]);
    expect(await ids({ errorCode: "ERR1003" })).toEqual([rows.m1]);
    expect(await ids({ from: at(4), to: at(1) })).toEqual([rows.m2, rows.m3, rows.m4]);
    expect(await ids({ from: at(2) })).toEqual([rows.m0, rows.m1, rows.m2]);
    expect(await ids({ keyId: beta.apikey_id, statusClass: "4xx", endpoint: "/v1/library/models" })).toEqual([rows.m7]);
    expect(await ids({ endpoint: "/v1/nothing" })).toEqual([]);
  });

  it("refuses bad filters with ERR1001 naming the field", async () => {
    const { accountId, member, at } = await loggedAccount();
    const caller = as(member);
    await expectTrpcInvalid(caller.list({ accountId, limit: 0 }), "limit");
    await expectTrpcInvalid(caller.list({ accountId, limit: 101 }), "limit");
    await expectTrpcInvalid(caller.list({ accountId, statusClass: "3xx" as "2xx" }), "statusClass");
    await expectTrpcInvalid(caller.list({ accountId, errorCode: "oops" }), "errorCode");
    await expectTrpcInvalid(caller.list({ accountId, from: at(1), to: at(2) }), "to");
    await expectTrpcInvalid(caller.list({ accountId, cursor: "not-a-cursor" }), "cursor");
  });

  it("is ERR1006 for another account and for its key ids", async () => {
    const victim = await loggedAccount();
    const stranger = await createTestAccount();
    const other = as(stranger.userId);
    await expectTrpcError(other.list({ accountId: victim.accountId }), "ERR1006");
    await expectTrpcError(other.endpoints({ accountId: victim.accountId }), "ERR1006");
    await expectTrpcError(other.list({ accountId: stranger.accountId, keyId: victim.alpha.apikey_id }), "ERR1006");
    await expectTrpcError(other.list({ accountId: stranger.accountId, keyId: "nope" }), "ERR1006");
    expect((await other.list({ accountId: stranger.accountId })).data).toEqual([]);
    expect(await other.endpoints({ accountId: stranger.accountId })).toEqual([]);
    await expectTrpcError(as(null).list({ accountId: victim.accountId }), "ERR1002");
  });
});
