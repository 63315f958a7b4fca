import { invalidRequest } from "../base/error-table";
import { planLimits, type PlanName } from "../plans/plan-limits";
import { MAX_LINK_TTL_SECONDS, parseDuration } from "../storage/destinations/parse-destination";
import type { GenerationRequest } from "../catalog/request-schema";

// A create's own output lifetimes: `generation_output_retention` (how long the files are kept, at
// most the plan's window) and `generation_output_link_ttl` (how long each link lives from when it
// is issued, at most 7 days). Every model honours both (outputs are always stored by this service
// or in the account's bucket), so a value is refused only when it is out of bounds: ERR1001 naming
// the field, never ignored.

export type OutputLifetimes = { retentionSeconds: number | null; linkTtlSeconds: number | null };

const words = (seconds: number) =>
  seconds % 86_400 === 0
    ? `${seconds / 86_400}d`
    : seconds % 3_600 === 0
      ? `${seconds / 3_600}h`
      : seconds % 60 === 0
        ? `${seconds / 60}m`
        : `${seconds}s`;

export function outputLifetimes(
  fields: Pick<GenerationRequest, "generation_output_retention" | "generation_output_link_ttl">,
  plan?: PlanName,
): OutputLifetimes {
  const retention = fields.generation_output_retention;
  const linkTtl = fields.generation_output_link_ttl;
  const retentionSeconds = retention === undefined ? null : parseDuration(retention);
  const linkTtlSeconds = linkTtl === undefined ? null : parseDuration(linkTtl);
  if (retentionSeconds !== null && plan) {
    const window = planLimits[plan].retention.outputFiles;
    if (retentionSeconds < 60 || retentionSeconds > window)
      throw invalidRequest(`generation_output_retention must be from 1m to this plan's output window (${words(window)}).`, [
        { field: "generation_output_retention", message: `must be from 1m to ${words(window)} on this plan` },
      ]);
  }
  if (linkTtlSeconds !== null && (linkTtlSeconds < 1 || linkTtlSeconds > MAX_LINK_TTL_SECONDS))
    throw invalidRequest("generation_output_link_ttl must be from 1s to 7d.", [
      { field: "generation_output_link_ttl", message: "must be from 1s to 7d" },
    ]);
  return { retentionSeconds, linkTtlSeconds };
}
