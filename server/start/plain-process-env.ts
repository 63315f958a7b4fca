// process.env is backed by the C environment: every read of a key is a call into C++, and
// Object.entries(process.env) is one per variable. The Inngest SDK copies the whole environment
// several times for each step request it serves (each copy about 20 µs with 35 variables, 46 µs
// under `npm start`, whose npm_* variables double the count), some fifty copies a generation.
// The server therefore reads its environment from a plain object: the same keys and values,
// taken once at start. Reads and writes go on as before (server/base/env.ts's setRuntimeEnv, Next
// setting NODE_ENV); child processes get the object, as they got process.env. What no longer
// happens is a write reaching the C environment, which nothing in the server reads after start
// (native modules read theirs when loaded, before this).

// npm's own variables (npm_config_*, npm_package_*, npm_lifecycle_*) are left out: nothing in the
// server reads them, and they are half the variables the SDK copies under `npm start`.
export function readEnvFromSnapshot() {
  process.env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith("npm_"))) as NodeJS.ProcessEnv;
}
