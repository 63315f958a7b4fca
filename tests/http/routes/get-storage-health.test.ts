import { describe, expect, it } from "vitest";
import { getStorageHealth } from "@/server/edge/http/operations/health";
import { accountWithKey } from "@/tests/support/fixtures";
import { callOperation, expectSuccess } from "@/tests/support/http";

// GET /v1/health/storage (getStorageHealth): a real write, read-back and delete.

describe("200", () => {
  it("probes storage for real", async () => {
    const { key } = await accountWithKey();
    const storage = expectSuccess(await callOperation(getStorageHealth, { key }));
    expect(storage).toMatchObject({ service: "storage", healthy: true, driver: "local-disk" });
    expect(typeof storage.latency_ms).toBe("number");
  });

  it("names the storage bucket", async () => {
    const { key } = await accountWithKey();
    const storage = expectSuccess(await callOperation(getStorageHealth, { key }));
    expect(storage).toMatchObject({ service: "storage", healthy: true, driver: "local-disk" });
    expect(storage.bucket).toMatch(/^local:\S+/);
  });
});
