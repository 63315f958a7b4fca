import { describe, expect, it } from "vitest";
import { nextCheckInSeconds, verificationDeadline } from "@/server/hostnames/verification-schedule";

// The verification's backoff: 1, 5, 15, 30 min, 1 h, 1 h, then every 2 h, never past 24 h.

const start = new Date("2026-03-01T10:00:00.000Z");
const after = (seconds: number) => new Date(start.getTime() + seconds * 1000);

describe("nextCheckInSeconds", () => {
  it("backs off, then checks every two hours", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 12].map((attempts) => nextCheckInSeconds(attempts, start, start))).toEqual([
      60, 300, 900, 1800, 3600, 3600, 7200, 7200,
    ]);
  });

  it("walks the whole day in about 17 checks, the last one on the deadline", () => {
    let now = start;
    let attempts = 1;
    const times: number[] = [0];
    for (;;) {
      const wait = nextCheckInSeconds(attempts, start, now);
      if (wait === null) break;
      now = new Date(now.getTime() + wait * 1000);
      attempts += 1;
      times.push((now.getTime() - start.getTime()) / 1000);
    }
    expect(times.slice(0, 7)).toEqual([0, 60, 360, 1260, 3060, 6660, 10260]);
    expect(times.at(-1)).toBe(24 * 3600);
    expect(attempts).toBeGreaterThanOrEqual(15);
    expect(attempts).toBeLessThanOrEqual(20);
  });

  it("stops at the deadline", () => {
    expect(verificationDeadline(start).toISOString()).toBe("2026-03-02T10:00:00.000Z");
    expect(nextCheckInSeconds(9, start, after(24 * 3600 - 90))).toBe(90);
    expect(nextCheckInSeconds(9, start, after(24 * 3600))).toBeNull();
    expect(nextCheckInSeconds(9, start, after(25 * 3600))).toBeNull();
  });
});
