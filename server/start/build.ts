import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { log } from "../base/log";

// `npm start` builds when the sources changed since the last build (or there is none), so a
// fresh clone needs nothing but `npm install` first.

const root = path.resolve(import.meta.dirname, "../..");
const sources = ["app", "components", "server", "public", "next.config.js", "postcss.config.mjs", "package.json", "tsconfig.json"];
const marker = path.join(root, ".next", "darkroom-source-fingerprint");

function walk(entry: string, out: string[]) {
  const full = path.join(root, entry);
  if (!fs.existsSync(full)) return;
  const stat = fs.statSync(full);
  if (stat.isDirectory()) {
    if (entry.endsWith("generated")) return;
    for (const child of fs.readdirSync(full).sort()) walk(path.join(entry, child), out);
  } else {
    out.push(`${entry}:${stat.size}:${Math.floor(stat.mtimeMs)}`);
  }
}

export function sourceFingerprint() {
  const files: string[] = [];
  for (const entry of sources) walk(entry, files);
  // A profiling build (NEXT_UNMINIFIED=1, next.config.js) is another build: switching rebuilds.
  if (process.env.NEXT_UNMINIFIED === "1") files.push("NEXT_UNMINIFIED=1");
  return createHash("sha256").update(files.join("\n")).digest("hex");
}

/**
 * The environment `next build` runs in: always a production build, whatever NODE_ENV the server is
 * started under (`NODE_ENV=development npm start` on a fresh clone). Under NODE_ENV=development,
 * `next build` prerenders with development React and fails on /_global-error (issue #28, row 11).
 */
export function buildEnvironment(parent: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...parent, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" };
}

export function ensureBuild(options: { force?: boolean } = {}) {
  const fingerprint = sourceFingerprint();
  const built =
    fs.existsSync(path.join(root, ".next", "BUILD_ID")) && fs.existsSync(marker) && fs.readFileSync(marker, "utf8") === fingerprint;
  if (built && !options.force) return false;
  log.info("building the app (next build); this takes a minute the first time");
  const result = spawnSync(process.execPath, [path.join(root, "node_modules/next/dist/bin/next"), "build"], {
    cwd: root,
    stdio: ["ignore", "inherit", "inherit"],
    env: buildEnvironment(process.env),
  });
  if (result.status !== 0) throw new Error(`next build failed with exit code ${result.status}`);
  fs.writeFileSync(marker, fingerprint);
  return true;
}
