import { describe, expect, it } from "vitest";
import { accountWithKey } from "@/tests/support/fixtures";
import { startSecondInstance } from "@/tests/support/second-instance";

// Found when a test runner died before its app: the app's stderr became a pipe nobody read, each
// log line failed with EPIPE, and that error, logged to the same pipe by the uncaught-exception
// handler, failed again: a loop that held a core for as long as the orphan lived. The server now
// ignores a closed log pipe: it serves, and stops cleanly on SIGTERM.

describe("a server whose log reader is gone", () => {
  it("answers requests and exits 0 on SIGTERM, its shutdown logs going nowhere", async () => {
    const instance = await startSecondInstance({ LOG_LEVEL: "debug" });
    instance.closeLogPipe();
    const { key } = await accountWithKey();
    for (let index = 0; index < 3; index += 1) {
      const reply = await fetch(`${instance.baseUrl}/v1/status`, { headers: { authorization: `Bearer ${key}` } });
      expect(reply.status).toBe(200);
    }
    const started = Date.now();
    expect(await instance.stop()).toBe(0);
    // The shutdown itself, not its 15 s deadline.
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
