import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startScript } from "@/tests/support/entry-points";

// The loopback settings let development reach services on this machine (webhook receivers,
// provider fakes serving outputs); a production start refuses each of them before it serves.

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "darkroom-loopback-flags-"));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

function productionStart(extra: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "production", DATA_DIR: dataDir, PORT: "1", ...extra };
  for (const name of [
    "WEBHOOK_ALLOW_LOOPBACK",
    "PROVIDER_ALLOW_LOOPBACK",
    "LOCAL_PROVIDER_PROMPT_FAULTS",
    "DARKROOM_DEPLOYMENT_ENV",
    "TEST_BASE_URL",
  ])
    if (!(name in extra)) delete env[name];
  // Nothing to reach: a start that got past its configuration would fail at the database instead.
  env.DATABASE_URL = "postgresql://postgres@127.0.0.1:1/none";
  return new Promise((resolve) => {
    execFile(process.execPath, [startScript, "--no-build", "--no-seed"], { env, timeout: 60_000 }, (error, _stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, stderr });
    });
  });
}

describe("a production start", () => {
  it.each(["WEBHOOK_ALLOW_LOOPBACK", "PROVIDER_ALLOW_LOOPBACK"])("refuses %s=1", async (flag) => {
    const { code, stderr } = await productionStart({ [flag]: "1" });
    expect(code).not.toBe(0);
    expect(stderr).toContain(`Invalid configuration: ${flag} is for development and tests; refused in production`);
  });
});
