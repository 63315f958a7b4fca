import path from "node:path";
import { describe, expect, it } from "vitest";
import { serverCommand } from "@/scripts/server-command";

// The bench starts the server as `npm start` does, read from package.json's start script: one
// plain `node` on the compiled entry, with the start script's environment (MALLOC_ARENA_MAX).

describe("serverCommand", () => {
  it("is package.json's start script: plain node on scripts/start.mjs with MALLOC_ARENA_MAX=1", () => {
    const command = serverCommand();
    expect(command.env).toEqual({ MALLOC_ARENA_MAX: "1" });
    expect(command.args).toEqual([path.resolve(import.meta.dirname, "../../scripts/start.mjs")]);
  });
});
