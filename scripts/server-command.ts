import path from "node:path";

// How `npm start` runs the server, for the bench (and anything else that must measure or start it
// the same way): plain node on the compiled entry, which compiles itself first when stale.

const root = path.resolve(import.meta.dirname, "..");

export function serverCommand(): { args: string[] } {
  return { args: [path.join(root, "scripts", "start.mjs")] };
}
