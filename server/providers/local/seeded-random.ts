import "server-only";
import { createHash } from "node:crypto";

// Every "random" choice of the local provider (colours, shapes, motion, faults) comes from here,
// so the same inputs give the same bytes and the same fault decisions on every machine.

export type Random = {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max], both inclusive. */
  int(min: number, max: number): number;
  /** A float in [min, max). */
  between(min: number, max: number): number;
};

/** A stable 32-bit seed from any parts (SHA-256, not a JS hash: identical across platforms). */
export function seedFrom(...parts: ReadonlyArray<string | number>): number {
  const digest = createHash("sha256").update(parts.map(String).join("\u0000")).digest();
  return digest.readUInt32BE(0);
}

/** mulberry32: tiny, fast, and good enough for pictures and dice. */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    between: (min, max) => min + next() * (max - min),
  };
}
