import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { nextCronTick } from "@/server/jobs/executor/cron";

// The embedded executor's cron adapter (croner): the next tick strictly after a moment, in UTC.

const at = (iso: string) => Date.parse(iso);
const next = (cron: string, after: string) => new Date(nextCronTick(cron, at(after))).toISOString();
const ticks = (cron: string, after: string, count: number) => {
  const out: string[] = [];
  let from = at(after);
  for (let i = 0; i < count; i += 1) {
    from = nextCronTick(cron, from);
    out.push(new Date(from).toISOString());
  }
  return out;
};

// The schedules of server/jobs/functions, with what each must do.
const appSchedules: Record<string, (cron: string) => void> = {
  "* * * * *": (cron) => {
    expect(next(cron, "2026-03-01T10:00:00.000Z")).toBe("2026-03-01T10:01:00.000Z");
    expect(next(cron, "2026-03-01T10:00:59.999Z")).toBe("2026-03-01T10:01:00.000Z");
    expect(next(cron, "2026-12-31T23:59:30.000Z")).toBe("2027-01-01T00:00:00.000Z");
  },
  "*/5 * * * *": (cron) => {
    expect(ticks(cron, "2026-03-01T10:03:12.000Z", 3)).toEqual([
      "2026-03-01T10:05:00.000Z",
      "2026-03-01T10:10:00.000Z",
      "2026-03-01T10:15:00.000Z",
    ]);
    expect(next(cron, "2026-03-01T10:55:00.000Z")).toBe("2026-03-01T11:00:00.000Z");
  },
  "*/15 * * * *": (cron) => {
    expect(ticks(cron, "2026-03-01T23:50:00.000Z", 3)).toEqual([
      "2026-03-02T00:00:00.000Z",
      "2026-03-02T00:15:00.000Z",
      "2026-03-02T00:30:00.000Z",
    ]);
  },
  "*/10 * * * *": (cron) => {
    expect(ticks(cron, "2026-03-01T23:45:00.000Z", 3)).toEqual([
      "2026-03-01T23:50:00.000Z",
      "2026-03-02T00:00:00.000Z",
      "2026-03-02T00:10:00.000Z",
    ]);
  },
  // Retention by plan: hourly, off the hour.
  "23 * * * *": (cron) => {
    expect(next(cron, "2026-03-01T10:22:59.000Z")).toBe("2026-03-01T10:23:00.000Z");
    expect(next(cron, "2026-03-01T10:23:00.000Z")).toBe("2026-03-01T11:23:00.000Z");
    expect(ticks(cron, "2026-12-31T22:30:00.000Z", 3)).toEqual([
      "2026-12-31T23:23:00.000Z",
      "2027-01-01T00:23:00.000Z",
      "2027-01-01T01:23:00.000Z",
    ]);
  },
};

function appCronSchedules(): string[] {
  const dir = path.resolve(import.meta.dirname, "../../../server/jobs/functions");
  const found = new Set<string>();
  for (const file of readdirSync(dir, { recursive: true, encoding: "utf8" })) {
    if (!file.endsWith(".ts")) continue;
    for (const match of readFileSync(path.join(dir, file), "utf8").matchAll(/\bcron:\s*"([^"]+)"/g)) found.add(match[1] as string);
  }
  return [...found].sort();
}

describe("cron adapter (croner)", () => {
  it("covers every schedule the app's functions declare", () => {
    expect(appCronSchedules()).toEqual(Object.keys(appSchedules).sort());
  });

  for (const [cron, check] of Object.entries(appSchedules)) {
    it(`schedules "${cron}" in UTC`, () => check(cron));
  }

  it("returns the tick strictly after a moment that is itself a tick", () => {
    const tick = nextCronTick("*/5 * * * *", at("2026-03-01T10:03:00.000Z"));
    expect(nextCronTick("*/5 * * * *", tick)).toBe(tick + 5 * 60_000);
  });

  it("reads lists, ranges, steps, names and macros", () => {
    expect(next("0 9-17/4 * JAN,jul *", "2026-01-31T18:00:00.000Z")).toBe("2026-07-01T09:00:00.000Z");
    expect(ticks("5/20 * * * *", "2026-03-01T10:00:00.000Z", 3)).toEqual([
      "2026-03-01T10:05:00.000Z",
      "2026-03-01T10:25:00.000Z",
      "2026-03-01T10:45:00.000Z",
    ]);
    expect(next("15 10 * * sun", "2026-03-02T00:00:00.000Z")).toBe("2026-03-08T10:15:00.000Z");
    expect(next("0 0 * * 7", "2026-03-02T00:00:00.000Z")).toBe("2026-03-08T00:00:00.000Z");
    expect(next("@hourly", "2026-03-01T10:30:00.000Z")).toBe("2026-03-01T11:00:00.000Z");
    expect(next("@daily", "2026-03-01T10:30:00.000Z")).toBe("2026-03-02T00:00:00.000Z");
    expect(next("@weekly", "2026-03-02T10:30:00.000Z")).toBe("2026-03-08T00:00:00.000Z");
    expect(next("@monthly", "2026-03-02T10:30:00.000Z")).toBe("2026-04-01T00:00:00.000Z");
    expect(next("@yearly", "2026-03-02T10:30:00.000Z")).toBe("2027-01-01T00:00:00.000Z");
    expect(next("0 0 29 2 *", "2026-03-01T00:00:00.000Z")).toBe("2028-02-29T00:00:00.000Z");
  });

  it("matches either day field when both are restricted, as Vixie cron and Inngest do", () => {
    // The 1st or the 15th, or any Friday (2026-03-06 is a Friday).
    expect(ticks("30 4 1,15 * 5", "2026-03-01T05:00:00.000Z", 3)).toEqual([
      "2026-03-06T04:30:00.000Z",
      "2026-03-13T04:30:00.000Z",
      "2026-03-15T04:30:00.000Z",
    ]);
    expect(next("0 0 * * MON-FRI", "2026-03-06T12:00:00.000Z")).toBe("2026-03-09T00:00:00.000Z");
    // A stepped "*/2" restricts its field (robfig/cron, which Inngest uses, reads it so too): odd
    // days or Mondays (2026-03-02).
    expect(ticks("0 0 */2 * 1", "2026-03-01T12:00:00.000Z", 3)).toEqual([
      "2026-03-02T00:00:00.000Z",
      "2026-03-03T00:00:00.000Z",
      "2026-03-05T00:00:00.000Z",
    ]);
  });

  it("honours a TZ= or CRON_TZ= prefix as Inngest does, UTC otherwise", () => {
    expect(next("TZ=Europe/Paris 0 12 * * *", "2026-01-10T00:00:00.000Z")).toBe("2026-01-10T11:00:00.000Z");
    expect(next("CRON_TZ=Europe/Paris 0 12 * * *", "2026-07-10T00:00:00.000Z")).toBe("2026-07-10T10:00:00.000Z");
    expect(next("0 12 * * *", "2026-07-10T00:00:00.000Z")).toBe("2026-07-10T12:00:00.000Z");
  });

  it("refuses what is not a five-field schedule, and one that never ticks", () => {
    for (const bad of ["* * * *", "0 * * * * *", "61 * * * *", "* * * * MOON", "nonsense", "", "TZ=Nowhere/Bogus 0 12 * * *"]) {
      expect(() => nextCronTick(bad, at("2026-03-01T00:00:00.000Z")), bad).toThrow(/cron/);
    }
    expect(() => nextCronTick("0 0 30 2 *", at("2026-03-01T00:00:00.000Z"))).toThrow(/no tick/);
  });
});
