import { describe, expect, it } from "vitest";
import { buildEnvironment } from "@/server/start/build";

// `NODE_ENV=development npm start` on a fresh clone builds the app first: that build must be a
// production build, or Next prerenders /_global-error with development React and fails (#28 row 11).

describe("the environment of `next build`", () => {
  it.each(["development", "test", "production", undefined] as const)("is production when the server runs under NODE_ENV=%s", (nodeEnv) => {
    const built = buildEnvironment({ PATH: "/usr/bin", NODE_ENV: nodeEnv, DATABASE_URL: "postgresql://x" } as NodeJS.ProcessEnv);
    expect(built.NODE_ENV).toBe("production");
    expect(built.NEXT_TELEMETRY_DISABLED).toBe("1");
    // Everything else passes through (the build reads the app's configuration).
    expect(built.PATH).toBe("/usr/bin");
    expect(built.DATABASE_URL).toBe("postgresql://x");
  });
});
