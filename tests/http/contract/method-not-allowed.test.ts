import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { v1Operations } from "@/server/edge/http/operations";
import { methodsAt } from "@/server/edge/http/v1-edge";
import { api, expectError } from "@/tests/support/http";

// 405 answers read the registry: at every path an operation (or its legacy form) is served on, a
// method no operation serves there is ERR1008 with `Allow` listing exactly the registry's methods
// for that concrete path (a two-segment model identifier is no generation id).

const concrete = (path: string) =>
  path.replace(/\{[^}]+\}/g, (match) => (match.includes("generation") ? randomUUID() : "darkroom/lumen-image"));
const paths = [...new Set(v1Operations.flatMap((operation) => [operation.path, ...operation.legacyPaths.map((legacy) => legacy.path)]))];

describe("405 method not allowed", () => {
  for (const path of paths) {
    it(`${path}: Allow lists the operations served there`, async () => {
      const target = concrete(path);
      const served = methodsAt(target) ?? [];
      expect(served.length).toBeGreaterThan(0);
      const unserved = ["GET", "POST", "PUT", "PATCH", "DELETE"].find((method) => !served.includes(method));
      const reply = await api(target, { method: unserved });
      const error = expectError(reply, "ERR1008");
      expect(new Set(reply.headers.get("allow")?.split(", "))).toEqual(new Set(served));
      expect(new Set(error.details.allowed_methods as string[])).toEqual(new Set(served));
    });
  }
});
