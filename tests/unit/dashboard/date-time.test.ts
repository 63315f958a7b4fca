import { describe, expect, it } from "vitest";
import { formatDateTime } from "@/components/ui/date-time";

// What the dashboard prints for a moment: the same text in Node (the server's render) and in the
// browser for the same zone, hours 00–23, so hydration never meets a different string.

const justAfterMidnight = "2026-11-25T00:11:05Z";

describe("formatDateTime", () => {
  it("prints midnight as 00, never 24 (Node's hour12: false does)", () => {
    expect(formatDateTime(justAfterMidnight, "log", "UTC")).toBe("Nov 25, 00:11:05");
    expect(formatDateTime(justAfterMidnight, "clock", "UTC")).toBe("00:11:05");
    expect(formatDateTime(justAfterMidnight, "datetime", "UTC")).toBe("Nov 25, 2026, 00:11");
  });

  it("prints the date in the zone asked for", () => {
    expect(formatDateTime(justAfterMidnight, "date", "UTC")).toBe("Nov 25, 2026");
    expect(formatDateTime(justAfterMidnight, "date", "America/Los_Angeles")).toBe("Nov 24, 2026");
    expect(formatDateTime(justAfterMidnight, "datetime", "Asia/Kolkata")).toBe("Nov 25, 2026, 05:41");
  });

  it("answers a dash for a value that is not a date", () => {
    expect(formatDateTime("not a date", "datetime", "UTC")).toBe("—");
  });
});
