import fs from "node:fs";
import os from "node:os";
import path from "node:path";

// The reliability drills (issue #13) run in two sizes: reduced inside `npm test`, full under
// `npm run test:reliability` (RELIABILITY_FULL=1). Each drill picks its own numbers for both and
// records what it saw; scripts/reliability-report.ts turns the records into docs/reliability.md.

export type DrillSize = "reduced" | "full";

export function drillSize(): DrillSize {
  return process.env.RELIABILITY_FULL === "1" ? "full" : "reduced";
}

/** The reduced or the full figure, by the size of this run. */
export function sized<T>(reduced: T, full: T): T {
  return drillSize() === "full" ? full : reduced;
}

/** One finding of a drill: what was checked and what was seen (counts, durations, ratios). */
export type DrillRecord = {
  drill: string; // "R1", "R2", ...
  title: string;
  size: DrillSize;
  durationMs: number;
  /** Figures in the order they should be read: `{ "creates sent": 1000, "accepted": 100 }`. */
  figures: Record<string, number | string | boolean>;
  /** The assertions that held, in words ("balance equals the ledger's sum after every step"). */
  checked: string[];
};

export function drillResultsDir(): string {
  return process.env.RELIABILITY_RESULTS_DIR ?? path.join(process.cwd(), ".data-test", "reliability");
}

/** Writes one record (a drill may write several, one per case) as `<drill>-<case>.json`. */
export function recordDrill(caseName: string, record: DrillRecord) {
  const dir = drillResultsDir();
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${record.drill}-${caseName.replace(/[^a-z0-9-]+/gi, "-").toLowerCase()}.json`);
  fs.writeFileSync(
    file,
    `${JSON.stringify({ ...record, case: caseName, host: os.hostname(), cpus: os.cpus().length, at: new Date().toISOString() }, null, 2)}\n`,
  );
}

/** Times a drill body and hands back its duration with its result. */
export async function timed<T>(body: () => Promise<T>): Promise<{ result: T; durationMs: number }> {
  const started = performance.now();
  const result = await body();
  return { result, durationMs: Math.round(performance.now() - started) };
}
