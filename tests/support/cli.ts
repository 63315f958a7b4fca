import { execFile } from "node:child_process";
import path from "node:path";
import { cliScript } from "./entry-points";

// The operator CLI as operators run it: a separate process printing one JSON object on stdout,
// with exit codes 0 / 1 / 2, against the suite's database.

const root = path.resolve(import.meta.dirname, "../..");

export type CliRun = { code: number; body: Record<string, any>; stdout: string; stderr: string };

export function cli(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    // `npm run cli -- ...` without npm's start-up cost: the same script.
    execFile(
      process.execPath,
      [cliScript, ...args],
      { cwd: root, env: { ...process.env, DATABASE_URL: process.env.DATABASE_URL!, LOG_LEVEL: "info", ...env }, timeout: 90_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : -1) : 0;
        const lines = stdout.trim().split("\n").filter(Boolean);
        if (lines.length !== 1) return reject(new Error(`expected one line on stdout, got ${JSON.stringify(stdout)}; stderr: ${stderr}`));
        try {
          resolve({ code, body: JSON.parse(lines[0]!), stdout, stderr });
        } catch {
          reject(new Error(`stdout is not JSON: ${stdout}`));
        }
      },
    );
  });
}
