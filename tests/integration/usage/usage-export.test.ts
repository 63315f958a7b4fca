import { afterAll, describe, expect, it } from "vitest";
import { accountScope } from "@/server/base/account-scope";
import { db, disconnectDb } from "@/server/base/db";
import { ApiError } from "@/server/base/error-table";
import { textStream } from "@/server/base/text-stream";
import { inTransaction } from "@/server/base/transaction";
import { deleteApiKey } from "@/server/keys/delete-key";
import { exportUsage, type UsageExportInput, type UsageExportSource } from "@/server/usage/export/export-usage";
import { focusColumns } from "@/server/usage/export/usage-export-columns";
import { usageExportDays } from "@/server/usage/export/usage-export-days";
import { createTestAccount, createTestKey } from "@/tests/support/fixtures";
import { addGenerations, addGenerationSeries, daysAgoAt, utcDay } from "@/tests/support/usage-history";

// The usage export (server/usage/export) against the real database: the exact rows of a known
// history at day × key × model × provider grain, the FOCUS columns, the range rules, and the
// file pulled from the source page by page as it is read, never built first.

afterAll(async () => {
  await disconnectDb();
});

async function text(
  input: Omit<UsageExportInput, "region"> & { region?: UsageExportInput["region"] },
  accountId: string,
  source?: UsageExportSource,
) {
  const file = await exportUsage(db, accountScope(accountId), { region: "us", ...input }, source);
  let out = "";
  for await (const line of file.lines) out += line;
  return { file, out };
}

async function refusal(run: () => Promise<unknown>) {
  const error = await run().then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

async function knownHistory() {
  const { accountId } = await createTestAccount({ plan: "pro" });
  await db.account.update({ where: { id: accountId }, data: { name: 'Studio, "North"' } });
  const first = await createTestKey(accountId, { name: "render farm" });
  const second = await createTestKey(accountId, { name: "old key" });
  const other = await createTestAccount();
  const [d3, d2] = [utcDay(3), utcDay(2)];
  await addGenerations(accountId, [
    // Day 3: key 1 on flux via bfl (two succeeded, one failed: refunded), and via fal.
    {
      at: daysAgoAt(3, 1),
      keyId: first.apikey_id,
      model: "black-forest-labs/flux-1.1-pro",
      provider: "bfl",
      status: "succeeded",
      cost: "0.040",
    },
    {
      at: daysAgoAt(3, 2),
      keyId: first.apikey_id,
      model: "black-forest-labs/flux-1.1-pro",
      provider: "bfl",
      status: "succeeded",
      cost: "0.040",
    },
    {
      at: daysAgoAt(3, 3),
      keyId: first.apikey_id,
      model: "black-forest-labs/flux-1.1-pro",
      provider: "bfl",
      status: "failed",
      cost: "0.040",
    },
    {
      at: daysAgoAt(3, 4),
      keyId: first.apikey_id,
      model: "black-forest-labs/flux-1.1-pro",
      provider: "fal",
      status: "processing",
      cost: "0.045",
    },
    // Canceled before any provider took it: no provider.
    { at: daysAgoAt(3, 5), keyId: second.apikey_id, model: "darkroom/lumen-image", provider: null, status: "canceled", cost: "0.010" },
    // A dashboard run without a key, just before midnight.
    { at: daysAgoAt(3, 23, 59), keyId: null, model: "darkroom/lumen-image", provider: "local", status: "succeeded", cost: "0.010" },
    // Day 2, first minute: the key that will be deleted.
    { at: daysAgoAt(2, 0), keyId: second.apikey_id, model: "darkroom/lumen-image", provider: "local", status: "pending", cost: "0.020" },
    // Another region: not this export's.
    {
      at: daysAgoAt(2, 1),
      keyId: first.apikey_id,
      model: "darkroom/lumen-image",
      provider: "local",
      status: "succeeded",
      cost: "9.000",
      region: "eu",
    },
    // Outside the range asked for.
    { at: daysAgoAt(1, 1), keyId: first.apikey_id, model: "darkroom/lumen-image", provider: "local", status: "succeeded", cost: "9.000" },
  ]);
  await addGenerations(other.accountId, [
    { at: daysAgoAt(3, 1), model: "darkroom/lumen-image", provider: "local", status: "succeeded", cost: "9.000" },
  ]);
  await inTransaction((tx) => deleteApiKey(tx, accountScope(accountId), { keyId: second.apikey_id, actor: "system" }));
  await db.apiKey.update({ where: { id: first.apikey_id }, data: { name: 'render farm, "new"' } });
  return { accountId, first: first.apikey_id, second: second.apikey_id, d3, d2 };
}

describe("usage export: rows", () => {
  it("one row per UTC day × key × model × provider, with counts, the cost that counts and the keys' current names", async () => {
    const { accountId, first, second, d3, d2 } = await knownHistory();
    const { out, file } = await text({ from: d3, to: d2, format: "csv" }, accountId);
    expect(file.filename).toBe(`darkroom-usage-us-${d3}-to-${d2}.csv`);
    expect(file.contentType).toBe("text/csv; charset=utf-8");
    const [keyless, ...keyed] = [
      `${d3},,,darkroom/lumen-image,local,1,1,0,0,0.010`,
      `${d3},${first},"render farm, ""new""",black-forest-labs/flux-1.1-pro,bfl,3,2,1,0,0.080`,
      `${d3},${first},"render farm, ""new""",black-forest-labs/flux-1.1-pro,fal,1,0,0,0,0.045`,
      `${d3},${second},,darkroom/lumen-image,,1,0,0,1,0.000`,
    ];
    // Within a day, rows sort by key id (none first), model, provider.
    const day3 = [keyless, ...keyed.sort()];
    expect(out).toBe(
      [
        "date,api_key_id,api_key_name,model,provider,generations,succeeded,failed,canceled,estimated_cost",
        ...day3,
        `${d2},${second},,darkroom/lumen-image,local,1,0,0,0,0.020`,
        "",
      ].join("\r\n"),
    );
  });

  it("FOCUS: the FOCUS 1.0 columns, credits as USD, the day as charge period and the month as billing period", async () => {
    const { accountId, first, d3, d2 } = await knownHistory();
    const { out, file } = await text({ from: d3, to: d2, format: "focus" }, accountId);
    expect(file.filename).toBe(`darkroom-usage-focus-us-${d3}-to-${d2}.csv`);
    const [header, ...rows] = out.split("\r\n");
    expect(header).toBe(focusColumns.join(","));
    expect(rows).toHaveLength(6);
    const bfl = rows.find((row) => row.includes(",bfl") || row.includes("via bfl")) ?? "";
    const month = d3.slice(0, 7);
    const next = new Date(Date.UTC(Number(d3.slice(0, 4)), Number(d3.slice(5, 7)), 1)).toISOString().slice(0, 10);
    const nextDay = new Date(new Date(`${d3}T00:00:00Z`).getTime() + 86_400_000).toISOString().slice(0, 10);
    expect(bfl).toBe(
      [
        "0.080",
        "0.080",
        "0.080",
        "0.080",
        "USD",
        `${month}-01T00:00:00Z`,
        `${next}T00:00:00Z`,
        `${d3}T00:00:00Z`,
        `${nextDay}T00:00:00Z`,
        "Usage",
        "3 generations of black-forest-labs/flux-1.1-pro via bfl",
        "Usage-Based",
        "2",
        "Generations",
        "2",
        "Generations",
        "Darkroom",
        "Darkroom",
        "Darkroom",
        "us",
        "United States",
        first,
        '"render farm, ""new"""',
        "API key",
        "AI and Machine Learning",
        "Darkroom Generation",
        "black-forest-labs/flux-1.1-pro",
        accountId,
        '"Studio, ""North"""',
        '"{""provider"":""bfl""}"',
      ].join(","),
    );
    // A row without a key has no resource; one without a provider an empty provider tag.
    const keyless = rows.find((row) => row.includes("via local") && !row.includes("API key")) ?? "";
    expect(keyless).toContain(",us,United States,,,,AI and Machine Learning,");
    expect(rows.find((row) => row.includes('""provider"":""""'))).toContain("1 generation of darkroom/lumen-image,Usage-Based,0,");
  });

  it("another region's export has only that region's rows; an empty range has the header alone", async () => {
    const { accountId, first, d2 } = await knownHistory();
    const { out } = await text({ from: d2, to: d2, format: "csv", region: "eu" }, accountId);
    expect(out.split("\r\n").slice(1)).toEqual([`${d2},${first},"render farm, ""new""",darkroom/lumen-image,local,1,1,0,0,9.000`, ""]);
    const empty = await text({ from: utcDay(20), to: utcDay(10), format: "csv" }, accountId);
    expect(empty.out).toBe("date,api_key_id,api_key_name,model,provider,generations,succeeded,failed,canceled,estimated_cost\r\n");
  });

  it("to defaults to today", async () => {
    const { accountId } = await createTestAccount({ plan: "pro" });
    await addGenerations(accountId, [{ at: new Date(), model: "darkroom/lumen-image", status: "succeeded", cost: "0.010" }]);
    const { out, file } = await text({ from: utcDay(1), format: "csv" }, accountId);
    expect(file.filename).toBe(`darkroom-usage-us-${utcDay(1)}-to-${utcDay(0)}.csv`);
    expect(out).toContain(`${utcDay(0)},,,darkroom/lumen-image,local,1,1,0,0,0.010`);
  });
});

describe("usage export: the range", () => {
  it("refuses a missing or malformed from, a malformed to, from after to and a to after today, naming the field", async () => {
    const { accountId } = await createTestAccount({ plan: "pro" });
    const cases: Array<[Partial<UsageExportInput>, string]> = [
      [{}, "from"],
      [{ from: "2026-13-01" }, "from"],
      [{ from: "2026-02-30" }, "from"],
      [{ from: "yesterday" }, "from"],
      [{ from: utcDay(2), to: "20261201" }, "to"],
      [{ from: utcDay(1), to: utcDay(2) }, "from"],
      [{ from: utcDay(1), to: utcDay(-1) }, "to"],
    ];
    for (const [input, field] of cases) {
      const error = await refusal(() => text({ format: "csv", ...input }, accountId));
      expect(error.code).toBe("ERR1001");
      expect((error.details.fields as Array<{ field: string }>)[0]?.field).toBe(field);
    }
  });

  it("refuses a from before the plan keeps generation records, and takes the first day it does", async () => {
    const now = new Date("2026-12-10T15:00:00.000Z");
    const pro = await createTestAccount({ plan: "pro" });
    // Pro keeps 30 days: 2026-11-10T15:00Z onwards, so 2026-11-10 is the first day.
    const error = await refusal(() => text({ from: "2026-11-09", to: "2026-12-01", format: "csv", now }, pro.accountId));
    expect(error.code).toBe("ERR1001");
    expect(error.details.fields).toEqual([{ field: "from", message: "must be on or after 2026-11-10 (the plan's retention)" }]);
    await expect(text({ from: "2026-11-10", to: "2026-12-01", format: "csv", now }, pro.accountId)).resolves.toBeTruthy();
    const free = await createTestAccount({ plan: "free" });
    await refusal(() => text({ from: "2026-12-08", to: "2026-12-10", format: "csv", now }, free.accountId));
    await expect(text({ from: "2026-12-09", format: "csv", now }, free.accountId)).resolves.toBeTruthy();
  });
});

describe("usage export: streamed from the source", () => {
  it("the first chunk is produced while the source still has pages to read, and rows written after it are in the file", async () => {
    const { accountId } = await createTestAccount({ plan: "pro" });
    // 300 rows on each of 10 days (12 to 3 days ago): a day is added up whole before its rows go out.
    for (let index = 0; index < 10; index += 1)
      await addGenerationSeries(accountId, { count: 300, day: utcDay(12 - index), keyId: null, offset: index * 300 });
    const day = utcDay(12);
    let pagesRead = 0;
    let finished = false;
    const pageSize = 100;
    // The real source, its pages counted through the page size it reads with.
    const counted: UsageExportSource = async function* (database, scope, input) {
      let rows = 0;
      for await (const row of usageExportDays(database, scope, { ...input, pageSize })) {
        rows += 1;
        pagesRead = Math.ceil(rows / pageSize);
        yield row;
      }
      finished = true;
    };
    const file = await exportUsage(db, accountScope(accountId), { from: day, to: utcDay(1), format: "csv", region: "us" }, counted);
    const reader = textStream(file.lines, { chunkBytes: 16 * 1024 }).getReader();
    const first = await reader.read();
    expect(first.done).toBe(false);
    expect(finished).toBe(false);
    expect(pagesRead).toBeLessThan(3000 / pageSize);
    // A generation of a later day, written after the first chunk went out: the cursor reaches it.
    await addGenerations(accountId, [{ at: daysAgoAt(1, 12), model: "darkroom/late-comer", status: "succeeded", cost: "1.000" }]);
    const decoder = new TextDecoder();
    let out = decoder.decode(first.value, { stream: true });
    let chunks = 1;
    for (;;) {
      const next = await reader.read();
      if (next.done) break;
      chunks += 1;
      out += decoder.decode(next.value, { stream: true });
    }
    expect(finished).toBe(true);
    expect(chunks).toBeGreaterThan(3);
    const lines = out.trimEnd().split("\r\n");
    expect(lines).toHaveLength(1 + 3000 + 1);
    expect(lines[1]).toBe(`${day},,,darkroom/model-0000001,local,1,1,0,0,0.025`);
    expect(lines.at(-1)).toBe(`${utcDay(1)},,,darkroom/late-comer,local,1,1,0,0,1.000`);
  });

  it("a reader that cancels ends the source", async () => {
    const { accountId } = await createTestAccount({ plan: "pro" });
    const day = utcDay(2);
    await addGenerationSeries(accountId, { count: 2000, day, keyId: null });
    let ended = false;
    const watched: UsageExportSource = async function* (database, scope, input) {
      try {
        yield* usageExportDays(database, scope, { ...input, pageSize: 100 });
      } finally {
        ended = true;
      }
    };
    const file = await exportUsage(db, accountScope(accountId), { from: day, to: day, format: "csv", region: "us" }, watched);
    const reader = textStream(file.lines, { chunkBytes: 4096 }).getReader();
    await reader.read();
    expect(ended).toBe(false);
    await reader.cancel();
    expect(ended).toBe(true);
  });
});
