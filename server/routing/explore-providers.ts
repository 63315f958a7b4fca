import "server-only";
import { createHash } from "node:crypto";
import type { ProviderId } from "../catalog/index";
import type { ProviderRanking } from "./rank-providers";

// Exploration: `fastest` only learns about providers that get traffic, and the second-ranked one
// gets none until the first fails. So a small share of `fastest` generations try the
// second-ranked provider first; if it has become the faster one, its attempts show it and the
// ranking turns. Never a provider whose circuit is open, and the rest of the chain is unchanged:
// the first-ranked provider is still the next to try, so failover loses nothing.
//
// The pick is a pure function of the generation id (not Math.random): the same generation always
// gets the same chain, and a test can count the share over any set of ids.

/** Share of eligible `fastest` generations sent to the second-ranked provider first. */
export const ROUTING_EXPLORATION_SHARE = 0.05;

export type ExploredOrder = {
  order: ProviderId[];
  /** The second-ranked provider was put first for this generation. */
  explored: boolean;
};

/** A number in [0, 1) fixed by the generation id, independent of its rendering seed. */
export function explorationDraw(generationId: string): number {
  return createHash("sha256").update(`routing-exploration:${generationId}`).digest().readUInt32BE(0) / 2 ** 32;
}

export function exploreProviders(
  ranking: Pick<ProviderRanking, "order" | "openCircuits">,
  generationId: string,
  share: number,
): ExploredOrder {
  const order = [...ranking.order];
  const open = new Set(ranking.openCircuits);
  const [first, second, ...rest] = order;
  // Open circuits rank last, so two providers outside them means the first two.
  const eligible = first !== undefined && second !== undefined && !open.has(first) && !open.has(second);
  if (!eligible || !(share > 0) || explorationDraw(generationId) >= share) return { order, explored: false };
  return { order: [second, first, ...rest], explored: true };
}
