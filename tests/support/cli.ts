import { execFile } from "node:child_process";
import path from "node:path";
import { cliScript } from "./entry-points";

// The operator CLI as operators run it: a separate process printing one JSON object on stdout,
// with exit codes 0 / 1 / 2, against the suite's database.

const root = path.resolve(import.meta.dirname, "../..");

export type CliRun = { code: number; body: Record<string, any>; stdout: string; stderr: string };

export type RawCliRun = { code: number; stdout: string; stderr: string };

/** A run whose stdout is whatever the command wrote (an export's file), not one JSON object. */
export function cliRaw(args: string[], env: Record<string, string> = {}): Promise<RawCliRun> {
  return new Promise((resolve) => {
    // `npm run cli -- ...` without npm's start-up cost: the same script.
    execFile(
      process.execPath,
      [cliScript, ...args],
      {
        cwd: root,
        env: { ...process.env, DATABASE_URL: process.env.DATABASE_URL!, LOG_LEVEL: "info", ...env },
        timeout: 90_000,
        maxBuffer: 64 * 1024 * 1024,
      },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, stdout, stderr }),
    );
  });
}

export function cli(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  return cliRaw(args, env).then(({ code, stdout, stderr }) => {
    const lines = stdout.trim().split("\n").filter(Boolean);
    if (lines.length !== 1) throw new Error(`expected one line on stdout, got ${JSON.stringify(stdout)}; stderr: ${stderr}`);
    try {
      return { code, body: JSON.parse(lines[0]!), stdout, stderr };
    } catch {
      throw new Error(`stdout is not JSON: ${stdout}`);
    }
  });
}
