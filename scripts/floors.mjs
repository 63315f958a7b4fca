// The floors of server/ (docs/architecture.md), bottom first, and `npm run floors`: every import
// arrow between server folders, the ones that climb (from a lower floor to a higher one) and the
// pairs of folders that import each other. ESLint reads the same table (eslint.config.mjs), so a
// climbing import fails `npm run lint`.
//
//   npm run floors            counts, then each climbing arrow and mutual pair
//   npm run floors -- --json  the same as JSON

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** Folder (or root file) under server/ → its floor. What is not listed is a domain (floor 1). */
export const floors = [
  {
    name: "base",
    level: 0,
    summary: "configuration, logging, the database and transactions, the error table, events and their executor registry, outbound network policy",
    folders: ["generated", "events", "net", "cache", "secrets", "pagination"],
  },
  { name: "domains", level: 1, summary: "the business: accounts, keys, credits, generations, providers, webhooks, billing, …", folders: [] },
  { name: "contract", level: 2, summary: "the /v1 contract: the zod schemas of requests and answers that the edge serves and OpenAPI describes", folders: ["contract"] },
  { name: "edge", level: 3, summary: "HTTP: the /v1 operations, handlers and OpenAPI document, the dashboard's tRPC routers", folders: ["http", "api"] },
  { name: "jobs", level: 4, summary: "background work: the Inngest functions and the embedded executor", folders: ["inngest"] },
  { name: "start", level: 5, summary: "the process: boot, the HTTP server in front of Next, the operator CLI", folders: ["start", "cli"] },
];

/** The floor of a path under server/ ("server/keys/x.ts", "server/env.ts"). */
export function floorOf(serverPath) {
  const parts = serverPath.split("/");
  if (parts[0] !== "server") return null;
  if (parts.length === 2) return floors[0]; // a file at server/'s root: env, db, errors, log, …
  return floors.find((floor) => floor.folders.includes(parts[1])) ?? floors[1];
}

/** The folder an arrow is counted between: server/<first folder>, or server/<root file>. */
export function folderOf(serverPath) {
  const parts = serverPath.split("/");
  return parts.length === 2 ? `server/${parts[1].replace(/\.(ts|tsx|mts)$/, "")}` : `server/${parts[1]}`;
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const importPattern = /(?:from|import|import\()\s*["']([^"'\n]+)["']/g;

function sourceFiles(dir, out = []) {
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const relative = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "generated") sourceFiles(relative, out);
    } else if (/\.(ts|tsx)$/.test(entry.name)) out.push(relative);
  }
  return out;
}

function resolveImport(fromFile, specifier) {
  let target;
  if (specifier.startsWith("@/")) target = specifier.slice(2);
  else if (specifier.startsWith(".")) target = path.posix.normalize(path.posix.join(path.posix.dirname(fromFile), specifier));
  else return null;
  return target.startsWith("server/") ? target : null;
}

/** "server/env" → "server/env.ts"; a folder ("server/catalog", its index) stays as it is. */
function targetFile(target) {
  return fs.existsSync(path.join(root, `${target}.ts`)) || fs.existsSync(path.join(root, `${target}.tsx`)) ? `${target}.ts` : target;
}

/** Every arrow between two server folders, with how many imports make it. */
export function importArrows() {
  const arrows = new Map();
  for (const file of sourceFiles("server")) {
    const source = fs.readFileSync(path.join(root, file), "utf8");
    for (const match of source.matchAll(importPattern)) {
      const target = resolveImport(file, match[1]);
      if (!target || target.startsWith("server/generated")) continue;
      const from = folderOf(file);
      const to = folderOf(targetFile(target));
      if (from === to) continue;
      const key = `${from} -> ${to}`;
      const arrow = arrows.get(key) ?? { from, to, fromLevel: floorOf(file).level, toLevel: floorOf(targetFile(target)).level, imports: 0, files: new Set() };
      arrow.imports += 1;
      arrow.files.add(file);
      arrows.set(key, arrow);
    }
  }
  return [...arrows.values()];
}

export function floorReport() {
  const arrows = importArrows();
  const climbing = arrows.filter((arrow) => arrow.fromLevel < arrow.toLevel);
  const keys = new Set(arrows.map((arrow) => `${arrow.from} -> ${arrow.to}`));
  const mutual = arrows.filter((arrow) => arrow.from < arrow.to && keys.has(`${arrow.to} -> ${arrow.from}`)).map((arrow) => [arrow.from, arrow.to]);
  return { arrows: arrows.length, climbing, mutual };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const report = floorReport();
  if (process.argv.includes("--json")) {
    console.log(JSON.stringify({ arrows: report.arrows, climbing: report.climbing.map((a) => ({ from: a.from, to: a.to, files: [...a.files] })), mutual: report.mutual }, null, 2));
  } else {
    console.log(`import arrows between server folders: ${report.arrows}`);
    console.log(`climbing (a lower floor importing a higher one): ${report.climbing.length}`);
    for (const arrow of report.climbing) console.log(`  ${arrow.from} -> ${arrow.to}   (${[...arrow.files].join(", ")})`);
    console.log(`folder pairs importing each other: ${report.mutual.length}`);
    for (const [a, b] of report.mutual) console.log(`  ${a} <-> ${b}`);
  }
}
