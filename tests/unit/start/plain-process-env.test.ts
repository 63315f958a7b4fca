import { spawnSync } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { readEnvFromSnapshot } from "../../../server/start/plain-process-env";

// The server reads its environment from a plain copy taken at start (#12): same keys and values,
// writes visible to every later reader and to child processes, as with process.env itself; npm's
// own variables (npm_*) are left out.

const original = process.env;
afterEach(() => {
  process.env = original;
});

describe("readEnvFromSnapshot", () => {
  it("keeps every variable and its value but npm's own, in a plain object", () => {
    process.env.npm_config_darkroom_probe = "npm's";
    process.env.DARKROOM_NPM_PROBE = "ours";
    const before = Object.entries(process.env);
    readEnvFromSnapshot();
    expect(process.env).not.toBe(original);
    expect(Object.getPrototypeOf(process.env)).toBe(Object.prototype);
    expect(Object.entries(process.env)).toEqual(before.filter(([key]) => !key.startsWith("npm_")));
    expect(process.env.DARKROOM_NPM_PROBE).toBe("ours");
    expect(process.env.npm_config_darkroom_probe).toBeUndefined();
    delete original.npm_config_darkroom_probe;
    delete original.DARKROOM_NPM_PROBE;
  });

  it("shows later writes to readers and to child processes", () => {
    readEnvFromSnapshot();
    process.env.DARKROOM_SNAPSHOT_PROBE = "set after the snapshot";
    delete process.env.HOME;
    const child = spawnSync(
      process.execPath,
      ["-e", "process.stdout.write(JSON.stringify([process.env.DARKROOM_SNAPSHOT_PROBE, process.env.HOME ?? null]))"],
      { encoding: "utf8" },
    );
    expect(JSON.parse(child.stdout)).toEqual(["set after the snapshot", null]);
    expect(original.DARKROOM_SNAPSHOT_PROBE).toBeUndefined();
  });
});
