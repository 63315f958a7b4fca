// The floors of server/ (docs/architecture.md), bottom first, and `npm run floors`: every import
// arrow between server folders, the ones that climb (from a lower floor to a higher one) and the
// pairs of folders that import each other. A floor is the first path segment under server/:
// server/base, server/edge, server/jobs, server/start; any other folder is a domain. ESLint reads
// the same table (eslint.config.mjs), so a climbing import fails `npm run lint`.
//
//   npm run floors            counts, then each climbing arrow and mutual pair
//   npm run floors -- --json  the same as JSON

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** server/<first segment> → its floor; a folder not listed is a domain. */
export const floors = [
  {
    name: "base",
    level: 0,
    summary:
      "configuration, logging, the database and transactions, the error table, events and the executor's interface, outbound network policy",
  },
  { name: "domains", level: 1, summary: "the business: accounts, keys, credits, generations, providers, webhooks, billing, …" },
  { name: "edge", level: 2, summary: "HTTP: the /v1 contract, operations, handlers and OpenAPI document, the dashboard's tRPC routers" },
  { name: "jobs", level: 3, summary: "background work: the Inngest functions and the embedded executor" },
  { name: "start", level: 4, summary: "the process: boot, the HTTP server in front of Next, the operator CLI" },
];

const byName = new Map(floors.map((floor) => [floor.name, floor]));

/** The floor of a path under server/ ("server/keys/x.ts", "server/base/env.ts"); null outside server/. */
export function floorOf(serverPath) {
  const parts = serverPath.split("/");
  if (parts[0] !== "server" || parts.length < 2) return null;
  // A file left at server/'s root belongs in server/base: it is held to base's rule.
  if (parts.length === 2 && /\.[cm]?[jt]sx?$/.test(parts[1])) return byName.get("base");
  return byName.get(parts[1]) ?? byName.get("domains");
}

/** What an arrow is counted between: server/<domain>, or server/<floor>/<folder or file>. */
export function folderOf(serverPath) {
  const parts = serverPath.split("/");
  const depth = byName.has(parts[1]) && parts[1] !== "domains" ? 3 : 2;
  return parts
    .slice(0, depth)
    .join("/")
    .replace(/\.(ts|tsx|mts)$/, "");
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const importPattern = /(?:from|import|import\()\s*["']([^"'\n]+)["']/g;
const isGenerated = (serverPath) => serverPath.startsWith("server/base/generated");

function sourceFiles(dir, out = []) {
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const relative = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!isGenerated(relative)) sourceFiles(relative, out);
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

/** "server/base/env" → "server/base/env.ts"; a folder ("server/catalog", its index) stays as it is. */
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
      if (!target || isGenerated(target)) continue;
      const from = folderOf(file);
      const to = folderOf(targetFile(target));
      if (from === to) continue;
      const key = `${from} -> ${to}`;
      const arrow = arrows.get(key) ?? {
        from,
        to,
        fromLevel: floorOf(file).level,
        toLevel: floorOf(targetFile(target)).level,
        imports: 0,
        files: new Set(),
      };
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
  const mutual = arrows
    .filter((arrow) => arrow.from < arrow.to && keys.has(`${arrow.to} -> ${arrow.from}`))
    .map((arrow) => [arrow.from, arrow.to]);
  return { arrows: arrows.length, climbing, mutual };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const report = floorReport();
  if (process.argv.includes("--json")) {
    console.log(
      JSON.stringify(
        {
          arrows: report.arrows,
          climbing: report.climbing.map((a) => ({ from: a.from, to: a.to, files: [...a.files] })),
          mutual: report.mutual,
        },
        null,
        2,
      ),
    );
  } else {
    console.log(`import arrows between server folders: ${report.arrows}`);
    console.log(`climbing (a lower floor importing a higher one): ${report.climbing.length}`);
    for (const arrow of report.climbing) console.log(`  ${arrow.from} -> ${arrow.to}   (${[...arrow.files].join(", ")})`);
    console.log(`folder pairs importing each other: ${report.mutual.length}`);
    for (const [a, b] of report.mutual) console.log(`  ${a} <-> ${b}`);
  }
}
