import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/server/base/db";
import { cli, cliRaw } from "@/tests/support/cli";
import { createTestAccount, createTestKey } from "@/tests/support/fixtures";
import { addGenerations, daysAgoAt, utcDay } from "@/tests/support/usage-history";

// usage:export and activity:export as operators run them: the file on stdout (nothing else
// there), or in --out with {out, bytes, filename} printed; bad flags ERR1001 naming the flag, exit 2.

afterAll(async () => {
  await disconnectDb();
});

const header = "date,api_key_id,api_key_name,model,provider,generations,succeeded,failed,canceled,estimated_cost";

async function history() {
  const { accountId } = await createTestAccount({ plan: "pro" });
  const key = await createTestKey(accountId, { name: "cli key" });
  await addGenerations(accountId, [
    { at: daysAgoAt(2, 10), keyId: key.apikey_id, model: "darkroom/lumen-image", status: "succeeded", cost: "0.010" },
    { at: daysAgoAt(2, 11), keyId: key.apikey_id, model: "darkroom/lumen-image", status: "failed", cost: "0.010" },
    { at: daysAgoAt(2, 12), keyId: key.apikey_id, model: "darkroom/lumen-image", status: "succeeded", cost: "0.010", region: "eu" },
  ]);
  return { accountId, keyId: key.apikey_id };
}

describe("cli: usage:export", () => {
  it("writes the CSV to stdout, and only the CSV", async () => {
    const { accountId, keyId } = await history();
    const run = await cliRaw(["usage:export", "--account", accountId, "--from", utcDay(3), "--to", utcDay(1)]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`${header}\r\n${utcDay(2)},${keyId},cli key,darkroom/lumen-image,local,2,1,1,0,0.010\r\n`);
  }, 60_000);

  it("--region picks the region, --format focus the FOCUS columns, --out a file and prints what it wrote", async () => {
    const { accountId, keyId } = await history();
    const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "darkroom-export-")), "usage.csv");
    const run = await cli([
      "usage:export",
      "--account",
      accountId,
      "--from",
      utcDay(2),
      "--format",
      "focus",
      "--region",
      "eu",
      "--out",
      out,
    ]);
    expect(run.code).toBe(0);
    const written = fs.readFileSync(out, "utf8");
    expect(run.body).toEqual({
      out,
      bytes: Buffer.byteLength(written),
      filename: `darkroom-usage-focus-eu-${utcDay(2)}-to-${utcDay(0)}.csv`,
    });
    const [head, row, end] = written.split("\r\n");
    expect(head?.split(",").slice(0, 5)).toEqual(["BilledCost", "EffectiveCost", "ListCost", "ContractedCost", "BillingCurrency"]);
    expect(row).toContain(`,eu,Europe,${keyId},cli key,API key,`);
    expect(end).toBe("");
  }, 60_000);

  it("refuses bad flags with ERR1001 naming the flag, exit 2, before anything is written", async () => {
    const { accountId } = await history();
    const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "darkroom-export-")), "never.csv");
    const cases: Array<[string[], string]> = [
      [["usage:export", "--from", utcDay(1)], "account"],
      [["usage:export", "--account", "nope", "--from", utcDay(1)], "account"],
      [["usage:export", "--account", accountId], "from"],
      [["usage:export", "--account", accountId, "--from", "01-12-2026"], "from"],
      [["usage:export", "--account", accountId, "--from", utcDay(1), "--to", "tomorrow"], "to"],
      [["usage:export", "--account", accountId, "--from", utcDay(1), "--format", "xlsx"], "format"],
      [["usage:export", "--account", accountId, "--from", utcDay(1), "--region", "mars"], "region"],
      [["usage:export", "--account", accountId, "--from", utcDay(1), "--to", utcDay(2), "--out", out], "from"],
      [["usage:export", "--account", accountId, "--from", utcDay(400), "--out", out], "from"],
      [["activity:export", "--account", accountId, "--format", "xml"], "format"],
    ];
    const runs = [];
    // A few at a time: each is a Node process of its own.
    for (let index = 0; index < cases.length; index += 4)
      runs.push(...(await Promise.all(cases.slice(index, index + 4).map(([args]) => cli(args)))));
    runs.forEach((run, index) => {
      expect(run.code, cases[index]![0].join(" ")).toBe(2);
      expect(run.body.error.code).toBe("ERR1001");
      expect(run.body.error.details.fields[0].field).toBe(cases[index]![1]);
    });
    expect(fs.existsSync(out)).toBe(false);
    const unwritable = await cli(["usage:export", "--account", accountId, "--from", utcDay(1), "--out", "/nonexistent-dir/usage.csv"]);
    expect(unwritable.code).toBe(2);
    expect(unwritable.body.error.details.fields[0].field).toBe("out");
    const missing = await cli(["usage:export", "--account", "00000000-0000-4000-8000-000000000000", "--from", utcDay(1)]);
    expect(missing.code).toBe(2);
    expect(missing.body.error.code).toBe("ERR1006");
  }, 120_000);
});

describe("cli: activity:export", () => {
  it("writes the account's activity as CSV or JSON Lines, oldest first", async () => {
    const { accountId } = await createTestAccount({ plan: "pro" });
    await db.activityEvent.create({
      data: {
        accountId,
        actor: "system",
        category: "credit",
        action: "credit.added",
        description: 'Added 5, "bonus"',
        createdAt: daysAgoAt(2, 8),
      },
    });
    const csv = await cliRaw(["activity:export", "--account", accountId, "--from", utcDay(2), "--to", utcDay(2)]);
    expect(csv.code).toBe(0);
    const [head, row, end] = csv.stdout.split("\r\n");
    expect(head).toBe("event_id,timestamp,actor,actor_name,category,action,description");
    expect(row).toMatch(/^[0-9a-f-]{36},\d{4}-\d{2}-\d{2}T08:00:00\.000Z,system,system,credit,credit\.added,"Added 5, ""bonus"""$/);
    expect(end).toBe("");
    const jsonl = await cliRaw(["activity:export", "--account", accountId, "--format", "jsonl"]);
    expect(jsonl.code).toBe(0);
    const events = jsonl.stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as { action: string; description: string });
    expect(events[0]).toMatchObject({ action: "credit.added", description: 'Added 5, "bonus"' });
    // The account's creation came after it (today): oldest first.
    expect(events.length).toBeGreaterThan(1);
  }, 60_000);
});
