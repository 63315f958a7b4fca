import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { eventIds } from "@/server/base/events/event-store";

// The executor's event ULIDs: 10 digits of milliseconds, then 80 bits of entropy counting up by one
// per event of a batch, in Crockford base 32. Checked against the same rule written with BigInt.

const crockford = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

function reference(count: number, time: number, entropy: Buffer): string[] {
  const encode = (value: bigint, length: number) => {
    let text = "";
    for (let i = 0; i < length; i += 1) {
      text = crockford[Number(value & 31n)] + text;
      value >>= 5n;
    }
    return text;
  };
  const base = BigInt(`0x${entropy.toString("hex")}`);
  return Array.from({ length: count }, (_, index) => encode(BigInt(time), 10) + encode((base + BigInt(index)) % (1n << 80n), 16));
}

const seedOf = (time: number, entropy: Buffer) => `${time},${entropy.toString("base64")}`;

describe("event ids", () => {
  it("match the BigInt rule for seeded batches, the halves' carry and the 80-bit wrap included", () => {
    const cases = [
      Buffer.alloc(10),
      Buffer.from("00000000ffffffffff00", "hex").subarray(0, 10),
      Buffer.from("0000000000fffffffffe", "hex"),
      Buffer.from("ffffffffffffffffffff", "hex"),
      Buffer.from("fffffffffffffffffff0", "hex"),
      ...Array.from({ length: 50 }, () => randomBytes(10)),
    ];
    for (const entropy of cases) {
      const time = Math.floor(Math.random() * 2 ** 48);
      expect(eventIds(40, seedOf(time, entropy), 0)).toEqual(reference(40, time, entropy));
    }
  });

  it("are 26 Crockford digits, distinct and ascending within a batch, and time-ordered across batches", () => {
    const first = eventIds(100, null, 1_700_000_000_000);
    const later = eventIds(1, null, 1_700_000_000_001);
    for (const id of first) expect(id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(new Set(first).size).toBe(100);
    expect(first.slice(0, 10).every((id) => id.startsWith(first[0]!.slice(0, 10)))).toBe(true);
    expect(later[0]! > first[99]!.slice(0, 10)).toBe(true);
  });

  it("ignores a seed whose time is not a whole number of milliseconds, or whose entropy is not 10 bytes", () => {
    const now = 1_700_000_000_000;
    const [fromBadTime] = eventIds(1, seedOf(1.5, randomBytes(10)), now);
    expect(fromBadTime!.slice(0, 10)).toBe(reference(1, now, Buffer.alloc(10))[0]!.slice(0, 10));
    const [fromShortEntropy] = eventIds(1, `${now - 5},${randomBytes(8).toString("base64")}`, now);
    expect(fromShortEntropy!.slice(0, 10)).toBe(reference(1, now, Buffer.alloc(10))[0]!.slice(0, 10));
  });
});
