import { afterAll, describe, expect, it } from "vitest";
import { accountScope } from "@/server/base/account-scope";
import { db, disconnectDb, sqlPool } from "@/server/base/db";
import { insertRequestLogs, type RequestLogRow } from "@/server/request-logs/insert-request-logs";
import { listRequestLogs } from "@/server/request-logs/list-request-logs";
import { createTestAccount, createTestKey } from "@/tests/support/fixtures";
import { requestLogRow } from "@/tests/support/request-logs";

// The writer: one statement for a batch, which skips the rows of a key deleted since, keeps a
// U+0000 as U+FFFD rather than losing the batch, moves last_used_at forward only, and finds or adds
// the small tables' entries once even when batches race to add the same one.

afterAll(disconnectDb);

async function keyOf(accountId: string, name: string) {
  const key = await createTestKey(accountId, { name });
  return { id: key.apikey_id, name: key.apikey_name, prefix: key.apikey_prefix };
}

function row(accountId: string, key: { id: string; name: string; prefix: string }, patch: Partial<RequestLogRow> = {}): RequestLogRow {
  const { id: apiKeyId, name: keyName, prefix: keyPrefix } = key;
  return requestLogRow({
    accountId,
    apiKeyId,
    keyName,
    keyPrefix,
    ipHash: "c".repeat(64),
    userAgent: "writer-tests/1",
    region: "us",
    touchLastUsed: true,
    ...patch,
  });
}

describe("insertRequestLogs", () => {
  it("skips the rows of a deleted key, writes the others, and moves last_used_at forward only", async () => {
    const { accountId } = await createTestAccount();
    const kept = await keyOf(accountId, "kept");
    const gone = await keyOf(accountId, "gone");
    await db.apiKey.delete({ where: { id: gone.id } });
    const newer = new Date(Date.now() - 1000);
    const older = new Date(Date.now() - 60_000);
    const ids = await insertRequestLogs(sqlPool(), [
      row(accountId, kept, { createdAt: newer }),
      row(accountId, gone),
      row(accountId, kept, { createdAt: older }),
    ]);
    expect(ids[0]).toEqual(expect.any(String));
    expect(ids[1]).toBeNull();
    expect(ids[2]).toEqual(expect.any(String));
    expect((await db.requestLog.findMany({ where: { accountId } })).map((logged) => logged.apiKeyId)).toEqual([kept.id, kept.id]);
    expect((await db.apiKey.findUniqueOrThrow({ where: { id: kept.id } })).lastUsedAt).toEqual(newer);

    await insertRequestLogs(sqlPool(), [row(accountId, kept, { createdAt: older })]);
    expect((await db.apiKey.findUniqueOrThrow({ where: { id: kept.id } })).lastUsedAt).toEqual(newer);
  });

  it("keeps a U+0000 as U+FFFD, in the query, the user agent and the key's name, and the batch with it", async () => {
    const { accountId } = await createTestAccount();
    const key = await keyOf(accountId, "nul");
    const [nul, plain] = await insertRequestLogs(sqlPool(), [
      row(accountId, key, { query: { q: "a\u0000b", "k\u0000": "v" }, userAgent: "ua\u0000", keyName: "n\u0000" }),
      row(accountId, key),
    ]);
    const page = await listRequestLogs(db, accountScope(accountId), {});
    const entry = page.data.find((logged) => logged.request_log_id === nul);
    expect(entry).toMatchObject({ query: { q: "a\uFFFDb", "k\uFFFD": "v" }, user_agent: "ua\uFFFD", key_name: "n\uFFFD" });
    expect(page.data.map((logged) => logged.request_log_id)).toContain(plain);
  });

  it("adds an account's, key's, caller's and route's entries once when two batches race to add them", async () => {
    const { accountId } = await createTestAccount();
    const key = await keyOf(accountId, "race");
    const batch = () =>
      Array.from({ length: 20 }, (_, index) =>
        row(accountId, key, { endpoint: `/v1/race/${index % 4}`, ipHash: `${index % 3}`.repeat(64) }),
      );
    const written = await Promise.all([
      insertRequestLogs(sqlPool(), batch()),
      insertRequestLogs(sqlPool(), batch()),
      insertRequestLogs(sqlPool(), batch()),
    ]);
    expect(written.flat().filter((id) => id !== null)).toHaveLength(60);
    const { rows } = await sqlPool().query(
      `SELECT (SELECT count(*)::int FROM request_log_account WHERE account_id = $1) AS accounts,
              (SELECT count(*)::int FROM request_log_key WHERE api_key_id = $2) AS keys,
              (SELECT count(*)::int FROM request_log_caller c JOIN request_log_key k USING (key_no) WHERE k.api_key_id = $2) AS callers,
              (SELECT count(*)::int FROM request_log_route t JOIN request_log_account a USING (account_no) WHERE a.account_id = $1) AS routes`,
      [accountId, key.id],
    );
    expect(rows[0]).toEqual({ accounts: 1, keys: 1, callers: 3, routes: 4 });
    expect(await db.requestLog.count({ where: { accountId } })).toBe(60);
  });

  it("moves a caller's and a route's last_seen_at forward once it is more than a minute behind", async () => {
    const { accountId } = await createTestAccount();
    const key = await keyOf(accountId, "seen");
    const start = new Date(Date.now() - 3_600_000);
    const seen = async () =>
      (
        await sqlPool().query(
          `SELECT (SELECT max(c.last_seen_at) FROM request_log_caller c JOIN request_log_key k USING (key_no) WHERE k.api_key_id = $2) AS caller,
                  (SELECT max(t.last_seen_at) FROM request_log_route t JOIN request_log_account a USING (account_no) WHERE a.account_id = $1) AS route`,
          [accountId, key.id],
        )
      ).rows[0];
    await insertRequestLogs(sqlPool(), [row(accountId, key, { createdAt: start })]);
    expect(await seen()).toEqual({ caller: start, route: start });
    // 30 s later: within the minute, left as it is.
    await insertRequestLogs(sqlPool(), [row(accountId, key, { createdAt: new Date(start.getTime() + 30_000) })]);
    expect(await seen()).toEqual({ caller: start, route: start });
    const later = new Date(start.getTime() + 90_000);
    await insertRequestLogs(sqlPool(), [row(accountId, key, { createdAt: later })]);
    expect(await seen()).toEqual({ caller: later, route: later });
  });
});
