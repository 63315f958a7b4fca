import { db } from "@/server/base/db";

// A burst of stream events (issue #43), for the live streams' memory suites and bench: written by
// the triggers' own function (one row and one NOTIFY each) in one transaction, as many state
// changes of the generation would write them. No vitest here: the bench uses it too.

/** `count` events of the generation: its record as `generation.processing`, or small attempt events. */
export async function burstEvents(generationId: string, count: number, kind: "record" | "attempt" = "record"): Promise<void> {
  const payload =
    kind === "record"
      ? "darkroom_generation_record_json(g)"
      : "jsonb_build_object('generation_id', g.id, 'provider', 'local', 'attempt', n, 'outcome', 'started')";
  const name = kind === "record" ? "generation.processing" : "generation.attempt";
  await db.$queryRawUnsafe(
    `SELECT count(*)::int AS written FROM (
       SELECT darkroom_write_generation_event(g.account_id, g.id, g.api_key_id, g.model_identifier, '${name}', ${payload})::text
         FROM generation g, generate_series(1, $2::int) n WHERE g.id = $1::uuid) burst`,
    generationId,
    count,
  );
}
