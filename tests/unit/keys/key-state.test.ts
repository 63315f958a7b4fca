import { describe, expect, it } from "vitest";
import { keyStateAt, type KeyStateFields } from "@/server/keys/key-state";

const now = new Date("2030-06-01T12:00:00.000Z");
const at = (offsetMs: number) => new Date(now.getTime() + offsetMs);
const key = (fields: Partial<KeyStateFields>): KeyStateFields => ({ status: "active", expiresAt: null, graceEndsAt: null, ...fields });

describe("keyStateAt", () => {
  it("active without expiry", () => {
    expect(keyStateAt(key({}), now)).toEqual({ state: "active", acceptsRequests: true });
  });

  it("active before its expiry, expired at and after it", () => {
    expect(keyStateAt(key({ expiresAt: at(1) }), now)).toEqual({ state: "active", acceptsRequests: true });
    expect(keyStateAt(key({ expiresAt: at(0) }), now)).toEqual({ state: "expired", acceptsRequests: false });
    expect(keyStateAt(key({ expiresAt: at(-60_000) }), now)).toEqual({ state: "expired", acceptsRequests: false });
  });

  it("rotated keys accept requests until the grace period ends (exclusive)", () => {
    expect(keyStateAt(key({ status: "rotated", graceEndsAt: at(1) }), now)).toEqual({ state: "rotated", acceptsRequests: true });
    expect(keyStateAt(key({ status: "rotated", graceEndsAt: at(0) }), now)).toEqual({ state: "rotated", acceptsRequests: false });
    expect(keyStateAt(key({ status: "rotated", graceEndsAt: at(-1) }), now)).toEqual({ state: "rotated", acceptsRequests: false });
    expect(keyStateAt(key({ status: "rotated", graceEndsAt: null }), now)).toEqual({ state: "rotated", acceptsRequests: false });
  });

  it("a rotated key whose expiry passes within the grace period is expired", () => {
    expect(keyStateAt(key({ status: "rotated", graceEndsAt: at(3_600_000), expiresAt: at(-1) }), now)).toEqual({
      state: "expired",
      acceptsRequests: false,
    });
  });

  it("revoked wins over everything", () => {
    expect(keyStateAt(key({ status: "revoked" }), now)).toEqual({ state: "revoked", acceptsRequests: false });
    expect(keyStateAt(key({ status: "revoked", expiresAt: at(-1) }), now)).toEqual({ state: "revoked", acceptsRequests: false });
    expect(keyStateAt(key({ status: "revoked", graceEndsAt: at(3_600_000) }), now)).toEqual({ state: "revoked", acceptsRequests: false });
  });

  it("uses the current time by default", () => {
    expect(keyStateAt(key({ expiresAt: new Date(Date.now() + 60_000) })).state).toBe("active");
    expect(keyStateAt(key({ expiresAt: new Date(Date.now() - 60_000) })).state).toBe("expired");
  });
});
