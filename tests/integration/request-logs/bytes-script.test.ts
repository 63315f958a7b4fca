import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { describe, expect, it } from "vitest";

// bench/request-log-bytes.ts (npm run bench:request-log-bytes) runs to the end on a small load and
// prints its figures. They are printed, not asserted: a few thousand rows in a dozen weeks' pages
// say nothing of the full-size figure (docs: server/request-logs/README.md).

const root = path.resolve(import.meta.dirname, "../../..");

describe("bench/request-log-bytes.ts", () => {
  it("loads a small log into a scratch database and prints its bytes a row", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", "bench/request-log-bytes.ts"], {
      cwd: root,
      env: {
        ...process.env,
        BENCH_REQUEST_LOG_ROWS: "3000",
        BENCH_REQUEST_LOG_ACCOUNTS: "40",
        BENCH_REQUEST_LOG_DATABASE: `darkroom_rl_bytes_${randomUUID().slice(0, 8)}`,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    expect(code, stderr).toBe(0);
    const report = JSON.parse(stdout.slice(stdout.indexOf("{"))) as Record<string, unknown>;
    console.log(
      `request_log at 3,000 rows: ${String(report.bytes_per_row)} bytes a row (the previous layout: ${String(report.previous_layout_bytes_per_row)})`,
    );
    expect(report).toMatchObject({ rows: 3000, bytes_per_row: expect.any(Number), previous_layout_bytes_per_row: expect.any(Number) });
  }, 180_000);
});
