import { spawnSync } from "node:child_process";

// The operator CLI from a spec (a key, a pause): its one JSON line on stdout.

export function operator(...args: string[]): Record<string, unknown> {
  const result = spawnSync(process.execPath, ["--import", "tsx", "--conditions=react-server", "server/start/cli/main.ts", ...args], {
    encoding: "utf8",
    env: process.env,
  });
  return JSON.parse(result.stdout.trim().split("\n").at(-1) ?? "{}") as Record<string, unknown>;
}
