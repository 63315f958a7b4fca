import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { apiKeyPattern, hashApiKey, newApiKey } from "@/server/keys/generate-key";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

describe("newApiKey", () => {
  it("is dkr_ followed by 40 base62 characters", () => {
    for (let i = 0; i < 200; i++) {
      const { key } = newApiKey();
      expect(key).toMatch(/^dkr_[0-9A-Za-z]{40}$/);
      expect(key).toHaveLength(44);
      expect(apiKeyPattern.test(key)).toBe(true);
    }
  });

  it("has a 9-character prefix that starts the key", () => {
    const { key, prefix } = newApiKey();
    expect(prefix).toHaveLength(9);
    expect(prefix.startsWith("dkr_")).toBe(true);
    expect(key.startsWith(prefix)).toBe(true);
  });

  it("stores the hex SHA-256 of the key, never the key", () => {
    const { key, hash } = newApiKey();
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).toBe(createHash("sha256").update(key).digest("hex"));
    expect(hashApiKey(key)).toBe(hash);
    expect(hash).not.toContain(key.slice(4));
  });

  it("never repeats", () => {
    const keys = new Set(Array.from({ length: 5000 }, () => newApiKey().key));
    expect(keys.size).toBe(5000);
  });

  it("uses every base62 character about equally (no modulo bias)", () => {
    const counts = new Map<string, number>();
    const samples = 5000;
    for (let i = 0; i < samples; i++) {
      for (const char of newApiKey().key.slice(4)) counts.set(char, (counts.get(char) ?? 0) + 1);
    }
    expect([...counts.keys()].sort().join("")).toBe([...BASE62].sort().join(""));
    // 200,000 characters over 62 symbols: expected ~3226 each, sd ~56. A modulo-256 bias would
    // give the first 8 symbols ~25% more (≈4000); ±8% is far outside noise and far inside that.
    const expected = (samples * 40) / 62;
    for (const [char, count] of counts) {
      expect(Math.abs(count - expected) / expected, char).toBeLessThan(0.08);
    }
    // Chi-square with 61 degrees of freedom: the 99.99th percentile is about 117.
    const chiSquare = [...counts.values()].reduce((sum, count) => sum + (count - expected) ** 2 / expected, 0);
    expect(chiSquare).toBeLessThan(117);
  });

  it("hashApiKey is deterministic and distinguishes keys", () => {
    expect(hashApiKey("dkr_a")).toBe(hashApiKey("dkr_a"));
    expect(hashApiKey("dkr_a")).not.toBe(hashApiKey("dkr_b"));
  });
});
