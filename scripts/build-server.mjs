// Compiles `npm start`'s entry (scripts/start.ts) and the server modules it loads into plain
// JavaScript, .build/start.mjs, so the production server runs on `node` alone: no TypeScript
// loader at run time. The operator CLI (server/start/cli/main.ts) is built beside it, .build/cli.mjs,
// sharing its chunks: `npm run cli` starts in half the time tsx took. Packages stay in
// node_modules; Next serves the app from its own build (.next). Rebuilt only when a source file is
// newer than the output (buildServer, called by scripts/start.mjs, scripts/cli.mjs and npm test).
// A dynamic `import()` of a source file becomes a chunk of its own (.build/start-chunk-*.mjs), so
// the packages only it imports load when it does, not with the entry (issue #12, idle memory).

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const outFile = path.join(root, ".build", "start.mjs");
export const cliFile = path.join(root, ".build", "cli.mjs");
const sourceDirs = ["server", "scripts", "prisma"];

function newestSource(dir, newest = 0) {
  const full = path.join(root, dir);
  if (!fs.existsSync(full)) return newest;
  for (const entry of fs.readdirSync(full, { withFileTypes: true })) {
    const relative = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = newestSource(relative, newest);
    else if (/\.(ts|mts|js|mjs|json)$/.test(entry.name)) newest = Math.max(newest, fs.statSync(path.join(root, relative)).mtimeMs);
  }
  return newest;
}

function serverBuildIsFresh() {
  if (!fs.existsSync(outFile) || !fs.existsSync(cliFile)) return false;
  const built = fs.statSync(outFile).mtimeMs;
  const inputs = Math.max(
    ...sourceDirs.map((dir) => newestSource(dir)),
    fs.statSync(path.join(root, "package.json")).mtimeMs,
    fs.statSync(path.join(root, "tsconfig.json")).mtimeMs,
  );
  return built >= inputs;
}

// import.meta.dirname/url of a source file, rebuilt at run time from the bundle's own place, so
// the repository can move after the build.
const sourcePaths = {
  name: "source-paths",
  setup(build) {
    build.onResolve({ filter: /^server-only$/ }, () => ({ path: "server-only", namespace: "empty-module" }));
    build.onLoad({ filter: /.*/, namespace: "empty-module" }, () => ({ contents: "", loader: "js" }));
    build.onLoad({ filter: /\.[cm]?ts$/ }, async (args) => {
      if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const relativeFile = path.relative(root, args.path).split(path.sep).join("/");
      const relativeDir = path.posix.dirname(relativeFile);
      const source = await fs.promises.readFile(args.path, "utf8");
      const contents = source
        .replaceAll("import.meta.dirname", `__darkroomSourceDir(${JSON.stringify(relativeDir)})`)
        .replaceAll("import.meta.url", `__darkroomSourceUrl(${JSON.stringify(relativeFile)})`);
      return { contents, loader: "ts" };
    });
  },
};

const banner = `import { fileURLToPath as __darkroomFileUrlToPath, pathToFileURL as __darkroomPathToFileUrl } from "node:url";
import __darkroomPath from "node:path";
import { createRequire as __darkroomCreateRequire } from "node:module";
const require = __darkroomCreateRequire(import.meta.url);
const __darkroomRoot = __darkroomPath.resolve(__darkroomPath.dirname(__darkroomFileUrlToPath(import.meta.url)), "..");
const __darkroomSourceDir = (relative) => __darkroomPath.join(__darkroomRoot, relative);
const __darkroomSourceUrl = (relative) => __darkroomPathToFileUrl(__darkroomPath.join(__darkroomRoot, relative)).href;`;

const lockFile = path.join(root, ".build.lock");
const LOCK_STALE_MS = 120_000;
// Held only while one process judges and removes a stale lock (microseconds); older than this, its
// process died in the middle.
const takeoverFile = `${lockFile}.takeover`;
const TAKEOVER_STALE_MS = 10_000;

/**
 * One build at a time across processes (two `npm run cli` after a pull, the CLI beside `npm
 * start`): the others wait for the lock, then find the output fresh and build nothing. A lock left
 * by a process that died (or older than two minutes) is taken over, by one process however many
 * find it stale at once.
 */
async function withBuildLock(body) {
  while (!createExclusively(lockFile)) {
    if (!(lockIsStale() && removeStaleLock())) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  try {
    return await body();
  } finally {
    // Unless another process took it over meanwhile (this build outlived LOCK_STALE_MS).
    if (readHolder() === process.pid) fs.rmSync(lockFile, { force: true });
  }
}

/** Creates the file with this process's pid unless it exists: whether this call created it. */
function createExclusively(file) {
  try {
    fs.writeFileSync(file, String(process.pid), { flag: "wx" });
    return true;
  } catch (error) {
    if (error.code === "EEXIST") return false;
    throw error;
  }
}

function readHolder() {
  try {
    return Number(fs.readFileSync(lockFile, "utf8"));
  } catch {
    return null;
  }
}

/**
 * Removes the lock if it is still stale, judged again under the takeover lock: of several
 * processes that found the same dead holder, the first removes its lock (and goes on to take the
 * lock itself); the ones after it find the lock gone or held by a live process and remove nothing.
 * Without it, a process that judged the lock stale could remove the one just taken over.
 */
function removeStaleLock() {
  if (!createExclusively(takeoverFile)) {
    try {
      if (Date.now() - fs.statSync(takeoverFile).mtimeMs > TAKEOVER_STALE_MS) fs.rmSync(takeoverFile, { force: true });
    } catch {
      // gone meanwhile
    }
    return false;
  }
  try {
    if (!lockIsStale()) return false;
    fs.rmSync(lockFile, { force: true });
    return true;
  } finally {
    fs.rmSync(takeoverFile, { force: true });
  }
}

function lockIsStale() {
  try {
    const holder = Number(fs.readFileSync(lockFile, "utf8"));
    if (Date.now() - fs.statSync(lockFile).mtimeMs > LOCK_STALE_MS) return true;
    process.kill(holder, 0);
    return false;
  } catch (error) {
    // Gone meanwhile (ENOENT: try again) or its process is (ESRCH: stale).
    return error.code === "ESRCH";
  }
}

/**
 * Builds .build/ unless it is fresh, or another process has just built it (`force`: in any case).
 * A fresh build costs a walk of the sources and no lock. Resolves to whether this call compiled.
 */
export async function buildServer({ force = false } = {}) {
  if (!force && serverBuildIsFresh()) return false;
  return withBuildLock(async () => {
    if (!force && serverBuildIsFresh()) return false;
    await compileServer();
    return true;
  });
}

async function compileServer() {
  const esbuild = await import("esbuild");
  const outDir = path.dirname(outFile);
  try {
    const { metafile } = await esbuild.build({
      absWorkingDir: root,
      entryPoints: { start: path.join(root, "scripts", "start.ts"), cli: path.join(root, "server", "start", "cli", "main.ts") },
      // Chunks sit beside start.mjs: the banner finds the repository from each file's own place.
      outdir: outDir,
      outExtension: { ".js": ".mjs" },
      splitting: true,
      chunkNames: "start-chunk-[hash]",
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      packages: "external",
      tsconfig: path.join(root, "tsconfig.json"),
      banner: { js: banner },
      plugins: [sourcePaths],
      logLevel: "warning",
      legalComments: "none",
      metafile: true,
    });
    pruneOldChunks(outDir, new Set(Object.keys(metafile.outputs).map((output) => path.basename(output))));
  } finally {
    await esbuild.stop();
  }
}

// A server started from an earlier build still imports that build's chunks when it first needs
// them (a lazy `import()`), after `npm run cli` or another `npm start` rebuilt .build/ beside it.
// Chunk names carry a content hash, so a rebuild never overwrites one in use; chunks stay until no
// build has written them for a week.
const CHUNK_KEEP_MS = 7 * 24 * 60 * 60 * 1000;

function pruneOldChunks(outDir, written) {
  const cutoff = Date.now() - CHUNK_KEEP_MS;
  for (const name of fs.readdirSync(outDir)) {
    if (!name.startsWith("start-chunk-") || written.has(name)) continue;
    const file = path.join(outDir, name);
    if (fs.statSync(file).mtimeMs < cutoff) fs.rmSync(file, { force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildServer({ force: true });
}
