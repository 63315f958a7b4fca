import { describe, expect, it } from "vitest";
import { env } from "@/server/base/env";
import { embeddedSigningKey } from "@/server/base/events/embedded-client";
import { ServeEndpoint } from "@/server/jobs/executor/serve-endpoint";
import { ensureAuthSecret } from "@/server/start/secrets";

// What the embedded executor learns from the app's own serve handler (the in-band sync, signed as
// the executor signs it): the functions' limits it enforces, keyed concurrency included.

describe("the app's Inngest functions as the executor syncs them", () => {
  it("runs generations with a per-account key, webhook deliveries with a function-wide limit", async () => {
    ensureAuthSecret();
    const endpoint = new ServeEndpoint(
      new URL("/api/inngest", process.env.TEST_BASE_URL),
      embeddedSigningKey(env().AUTH_SECRET as string),
      10_000,
    );
    try {
      const { appId, functions } = await endpoint.sync();
      expect(appId).toBe("darkroom");
      const byId = new Map(functions.map((fn) => [fn.id, fn]));
      expect(byId.get("darkroom-run-generation")).toMatchObject({
        concurrency: null,
        concurrencyKey: { expression: "event.data.accountId", limit: 8 },
      });
      expect(byId.get("darkroom-webhook-delivery")).toMatchObject({ concurrency: 12, concurrencyKey: null });
    } finally {
      endpoint.close();
    }
  });
});
