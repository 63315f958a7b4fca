import { describe, expect, it } from "vitest";
import { regionBaseUrl } from "@/server/edge/http/region-hosts";

// The address a key's curl example points at: the one whose host resolves to the key's region.

describe("regionBaseUrl", () => {
  const config = {
    appUrl: "https://api.darkroom.example",
    regionHosts: "api.eu.darkroom.example=eu, jp.darkroom.example:8443=jp",
    defaultRegion: "us" as const,
  };

  it("is APP_URL for the region APP_URL's host resolves to", () => {
    expect(regionBaseUrl("us", config)).toBe("https://api.darkroom.example");
  });

  it("is the REGION_HOSTS host of the key's region, with APP_URL's scheme and the listed port", () => {
    expect(regionBaseUrl("eu", config)).toBe("https://api.eu.darkroom.example");
    expect(regionBaseUrl("jp", config)).toBe("https://jp.darkroom.example:8443");
  });

  it("is APP_URL when APP_URL's own host is listed for the key's region", () => {
    const listed = {
      ...config,
      appUrl: "http://localhost:3000",
      regionHosts: "eu.localhost:3000=eu,localhost:3000=jp",
      defaultRegion: "us" as const,
    };
    expect(regionBaseUrl("jp", listed)).toBe("http://localhost:3000");
    expect(regionBaseUrl("eu", listed)).toBe("http://eu.localhost:3000");
  });

  it("falls back to APP_URL when no host serves the key's region (the deployment's own region, or none configured)", () => {
    expect(regionBaseUrl("us", { ...config, regionHosts: undefined })).toBe("https://api.darkroom.example");
    expect(regionBaseUrl("eu", { ...config, regionHosts: undefined })).toBe("https://api.darkroom.example");
    expect(regionBaseUrl("eu", { ...config, regionHosts: "bogus, =eu, x.example=mars" })).toBe("https://api.darkroom.example");
  });

  it("matches hosts case-insensitively", () => {
    expect(regionBaseUrl("eu", { ...config, appUrl: "https://API.EU.darkroom.example", defaultRegion: "us" })).toBe(
      "https://API.EU.darkroom.example",
    );
  });
});
