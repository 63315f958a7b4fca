import { describe, expect, it } from "vitest";
import { db } from "@/server/base/db";
import { exportUsage } from "@/server/edge/http/operations/downloads";
import { accountWithKey, createTestKey } from "@/tests/support/fixtures";
import { api, baseUrl, callOperation, expectError, invalidFields } from "@/tests/support/http";
import { whenLogged } from "@/tests/support/request-logs";
import { addGenerations, daysAgoAt, utcDay } from "@/tests/support/usage-history";

// GET /v1/usage/export (exportUsage): a streamed text/csv attachment behind the usual checkpoint
// (key, scope, rate limit, request log, request id), envelope errors before the file starts.

const header = "date,api_key_id,api_key_name,model,provider,generations,succeeded,failed,canceled,estimated_cost";

describe("200", () => {
  it("answers the key's account's rows as a CSV attachment with the checkpoint's headers, and logs the request", async () => {
    const { key, keyId, accountId } = await accountWithKey({ plan: "pro" });
    const other = await accountWithKey({ plan: "pro" });
    await addGenerations(accountId, [
      { at: daysAgoAt(3, 10), keyId, model: "darkroom/lumen-image", provider: "local", status: "succeeded", cost: "0.010" },
      { at: daysAgoAt(3, 11), keyId, model: "darkroom/lumen-image", provider: "local", status: "canceled", cost: "0.010" },
      { at: daysAgoAt(2, 9), keyId, model: "darkroom/lumen-video", provider: "local", status: "succeeded", cost: "0.500" },
    ]);
    // Another account's generations never show.
    await addGenerations(other.accountId, [
      { at: daysAgoAt(3, 10), keyId: other.keyId, model: "darkroom/lumen-image", status: "succeeded", cost: "1.000" },
    ]);

    const reply = await callOperation(exportUsage, { key, query: { from: utcDay(3), to: utcDay(2) } });
    expect(reply.status).toBe(200);
    expect(reply.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(reply.headers.get("content-disposition")).toBe(`attachment; filename="darkroom-usage-us-${utcDay(3)}-to-${utcDay(2)}.csv"`);
    expect(reply.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(reply.headers.get("x-ratelimit-limit")).toBe("150");
    expect(reply.headers.get("x-ratelimit-remaining")).not.toBeNull();
    expect(reply.body).toBe(
      [
        header,
        `${utcDay(3)},${keyId},test key,darkroom/lumen-image,local,2,1,0,1,0.010`,
        `${utcDay(2)},${keyId},test key,darkroom/lumen-video,local,1,1,0,0,0.500`,
        "",
      ].join("\r\n"),
    );
    const logged = await whenLogged(() => db.requestLog.findFirst({ where: { accountId, endpoint: "/v1/usage/export" } }));
    expect(logged).toMatchObject({ method: "GET", statusCode: 200, errorCode: null, requestId: reply.headers.get("x-request-id") });
  });

  it("format=focus answers the FOCUS columns; to defaults to today", async () => {
    const { key, accountId } = await accountWithKey({ plan: "pro" });
    await addGenerations(accountId, [{ at: new Date(), model: "darkroom/lumen-image", status: "succeeded", cost: "0.010" }]);
    const reply = await callOperation(exportUsage, { key, query: { from: utcDay(0), format: "focus" } });
    expect(reply.status).toBe(200);
    expect(reply.headers.get("content-disposition")).toBe(
      `attachment; filename="darkroom-usage-focus-us-${utcDay(0)}-to-${utcDay(0)}.csv"`,
    );
    const [head, row] = String(reply.body).split("\r\n");
    expect(head).toMatch(/^BilledCost,EffectiveCost,ListCost,ContractedCost,BillingCurrency,BillingPeriodStart,/);
    expect(head).toMatch(/,SubAccountId,SubAccountName,Tags$/);
    expect(row).toMatch(/^0\.010,0\.010,0\.010,0\.010,USD,/);
  });

  it("an account with nothing in the range gets the header alone", async () => {
    const { key } = await accountWithKey({ plan: "pro" });
    const reply = await callOperation(exportUsage, { key, query: { from: utcDay(5), to: utcDay(4) } });
    expect(reply.status).toBe(200);
    expect(reply.body).toBe(`${header}\r\n`);
  });
});

describe("HEAD", () => {
  it("answers the headers of the file without a body", async () => {
    const { key } = await accountWithKey({ plan: "pro" });
    const response = await fetch(`${baseUrl()}/v1/usage/export?from=${utcDay(1)}`, {
      method: "HEAD",
      headers: { authorization: `Bearer ${key}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="darkroom-usage-us-/);
    expect(await response.text()).toBe("");
  });
});

describe("400", () => {
  it("refuses each bad input in the envelope, naming the parameter", async () => {
    const { key } = await accountWithKey({ plan: "pro" });
    const cases: Array<[Record<string, string>, string]> = [
      [{}, "from"],
      [{ from: "" }, "from"],
      [{ from: "2026/12/01" }, "from"],
      [{ from: "2026-02-30" }, "from"],
      [{ from: utcDay(2), to: "soon" }, "to"],
      [{ from: utcDay(1), to: utcDay(2) }, "from"],
      [{ from: utcDay(1), to: utcDay(-2) }, "to"],
      [{ from: utcDay(40) }, "from"],
      [{ from: utcDay(1), format: "xlsx" }, "format"],
    ];
    for (const [query, field] of cases) {
      const reply = await callOperation(exportUsage, { key, query });
      expect(reply.headers.get("content-type")).toBe("application/json; charset=utf-8");
      expect(invalidFields(expectError(reply, "ERR1001"))[0], JSON.stringify(query)).toBe(field);
    }
  });
});

describe("401", () => {
  it("refuses a request without a key or with an unknown one", async () => {
    expectError(await callOperation(exportUsage, { query: { from: utcDay(1) } }), "ERR1002");
    expectError(await callOperation(exportUsage, { key: `dkr_${"x".repeat(40)}`, query: { from: utcDay(1) } }), "ERR1002");
  });
});

describe("403", () => {
  it("refuses a key without account:read", async () => {
    const { accountId } = await accountWithKey();
    const monitor = await createTestKey(accountId, { preset: "monitor" });
    const error = expectError(await callOperation(exportUsage, { key: monitor.key, query: { from: utcDay(1) } }), "ERR1003");
    expect(error.details).toMatchObject({ required_scope: "account:read" });
  });
});

describe("405", () => {
  it("answers other methods with ERR1008 and Allow: GET", async () => {
    const { key } = await accountWithKey();
    const reply = await api(`/v1/usage/export?from=${utcDay(1)}`, { key, method: "POST" });
    expectError(reply, "ERR1008");
    expect(reply.headers.get("allow")).toBe("GET");
  });
});
