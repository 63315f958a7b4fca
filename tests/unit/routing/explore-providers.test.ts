import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { ProviderId } from "@/server/catalog/index";
import { explorationDraw, exploreProviders, ROUTING_EXPLORATION_SHARE } from "@/server/routing/explore-providers";

/** Fixed, well-spread UUID-shaped ids: the same 10,000 on every run. */
function generationIds(count: number, salt = "ids"): string[] {
  return Array.from({ length: count }, (_, index) => {
    const hex = createHash("sha256").update(`${salt}:${index}`).digest("hex");
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  });
}

const ranked = (order: ProviderId[], openCircuits: ProviderId[] = []) => ({ order, openCircuits });
/** An id that explores at the default share, and one that does not. */
const ids = generationIds(1_000);
const exploring = ids.find((id) => explorationDraw(id) < ROUTING_EXPLORATION_SHARE)!;
const staying = ids.find((id) => explorationDraw(id) >= ROUTING_EXPLORATION_SHARE)!;

describe("exploreProviders", () => {
  it("sends 5 % ± 1 % of 10,000 generations to the second-ranked provider first", () => {
    expect(ROUTING_EXPLORATION_SHARE).toBe(0.05);
    const results = generationIds(10_000).map((id) =>
      exploreProviders(ranked(["fal", "replicate", "openai"]), id, ROUTING_EXPLORATION_SHARE),
    );
    const explored = results.filter((result) => result.explored);
    expect(explored.length).toBeGreaterThanOrEqual(400);
    expect(explored.length).toBeLessThanOrEqual(600);
    for (const result of explored) expect(result.order).toEqual(["replicate", "fal", "openai"]);
    for (const result of results.filter((result) => !result.explored)) expect(result.order).toEqual(["fal", "replicate", "openai"]);
  });

  it("follows the share it is given", () => {
    const sample = generationIds(10_000, "share");
    const count = (share: number) => sample.filter((id) => exploreProviders(ranked(["fal", "replicate"]), id, share).explored).length;
    expect(count(0)).toBe(0);
    expect(count(1)).toBe(10_000);
    expect(count(0.2)).toBeGreaterThanOrEqual(1_900);
    expect(count(0.2)).toBeLessThanOrEqual(2_100);
  });

  it("decides the same way every time for the same generation", () => {
    for (const id of ids.slice(0, 50)) {
      expect(exploreProviders(ranked(["fal", "replicate"]), id, 0.5)).toEqual(exploreProviders(ranked(["fal", "replicate"]), id, 0.5));
    }
    expect(explorationDraw(exploring)).toBeLessThan(ROUTING_EXPLORATION_SHARE);
    expect(explorationDraw(staying)).toBeGreaterThanOrEqual(ROUTING_EXPLORATION_SHARE);
  });

  it("never puts a provider with an open circuit first", () => {
    const alwaysExplore = 1;
    const result = exploreProviders(ranked(["fal", "replicate"], ["replicate"]), exploring, alwaysExplore);
    expect(result).toEqual({ order: ["fal", "replicate"], explored: false });
    for (const id of ids) {
      const withThird = exploreProviders(ranked(["fal", "openai", "replicate"], ["openai", "replicate"]), id, alwaysExplore);
      expect(withThird).toEqual({ order: ["fal", "openai", "replicate"], explored: false });
    }
  });

  it("explores only with at least two providers outside an open circuit", () => {
    expect(exploreProviders(ranked(["fal"]), exploring, 1)).toEqual({ order: ["fal"], explored: false });
    expect(exploreProviders(ranked([]), exploring, 1)).toEqual({ order: [], explored: false });
    expect(exploreProviders(ranked(["fal", "replicate"], ["fal", "replicate"]), exploring, 1)).toEqual({
      order: ["fal", "replicate"],
      explored: false,
    });
    // Two healthy ones and an open third: the two healthy ones swap, the open one stays last.
    expect(exploreProviders(ranked(["fal", "replicate", "openai"], ["openai"]), exploring, ROUTING_EXPLORATION_SHARE)).toEqual({
      order: ["replicate", "fal", "openai"],
      explored: true,
    });
  });

  it("keeps every provider in the failover chain exactly once", () => {
    for (const id of generationIds(2_000, "chain")) {
      const { order } = exploreProviders(ranked(["fal", "replicate", "openai"]), id, 0.5);
      expect([...order].sort()).toEqual(["fal", "openai", "replicate"]);
    }
  });

  it("does not move the chain of a generation that stays", () => {
    expect(exploreProviders(ranked(["fal", "replicate"]), staying, ROUTING_EXPLORATION_SHARE)).toEqual({
      order: ["fal", "replicate"],
      explored: false,
    });
  });
});
