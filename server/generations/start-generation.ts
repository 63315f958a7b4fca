import "server-only";
import { outputLifetimes } from "./output-lifetimes";
import type { PlanName } from "../plans/plan-limits";
import { createHash, randomUUID } from "node:crypto";
import type { ModelDefinition } from "../catalog";
import { priceGeneration } from "../catalog/pricing";
import type { GenerationRequest } from "../catalog/request-schema";
import type { ProviderId } from "../catalog/providers";
import type { Tx } from "../base/db";
import type { RegionName } from "../base/env";
import { prepareSendInTransaction } from "../base/events/send-in-transaction";
import { parseProviderOrder } from "./parse-provider-order";
import { resolveOrder } from "./resolve-order";
import { deadlineOf, reserveAndRecord } from "./reserve-and-record";
import { generationDeadlineEvent, generationRequestedEvent } from "./send-generation-requested";

// Starting a generation: plan it (provider chain and price) outside any transaction, then in the
// caller's transaction check the concurrency cap, reserve credits and create the `pending`
// record; once that commits, the run is handed to the background.

export type GenerationPlan = {
  /** Chosen before the chain: `fastest` exploration is decided by it. */
  generationId: string;
  accountId: string;
  apiKeyId: string;
  region: RegionName;
  model: ModelDefinition;
  fields: GenerationRequest;
  providerOrder: ProviderId[];
  /** The chain starts with the second-ranked provider (routing exploration). */
  routingExploration: boolean;
  costMillis: number;
  /** Cancel-After: the deadline is this long after the record's creation; null for none. */
  cancelAfterMs: number | null;
  /** The create's clock for its record and its spend period (tests); now by default. */
  now?: Date;
};

export type GenerationCreated = {
  model_identifier: string;
  generation_provider_order: ProviderId[];
  generation_prediction_id: null;
  generation_id: string;
  generation_initialized: true;
};

/** Same generation, same pictures: the seed comes from the generation id. */
export function seedFor(generationId: string) {
  return createHash("sha256").update(generationId).digest().readUInt32BE(0);
}

export async function planGeneration(
  input: Omit<GenerationPlan, "generationId" | "providerOrder" | "routingExploration" | "costMillis" | "cancelAfterMs"> & {
    cancelAfterMs?: number | null;
    /** The account's plan, which bounds generation_output_retention. */
    accountPlan?: PlanName;
  },
): Promise<GenerationPlan> {
  const { model, fields, accountPlan, ...rest } = input;
  outputLifetimes(fields, accountPlan);
  const generationId = randomUUID();
  const requested = parseProviderOrder(model, fields.generation_provider_order);
  const price = priceGeneration(model, {
    count: fields.generation_output_number,
    ratio: fields.generation_ratio,
    durationSeconds: fields.generation_duration,
    resolution: fields.generation_resolution,
    audio: fields.generation_generate_audio,
  });
  const chain = await resolveOrder(model, input.region, requested, generationId);
  return {
    ...rest,
    model,
    fields,
    generationId,
    providerOrder: chain.order,
    routingExploration: chain.explored,
    costMillis: price.totalMillis,
    cancelAfterMs: input.cancelAfterMs ?? null,
  };
}

export async function startGeneration(tx: Tx, plan: GenerationPlan): Promise<GenerationCreated> {
  const now = plan.now ?? new Date();
  const deadlineAt = deadlineOf(now, plan.cancelAfterMs);
  // The run is written with the record (embedded executor): it starts as soon as this commits; so
  // is the deadline's own run, which cancels the generation at its deadline even if no run is alive.
  // With the embedded executor, the events and runs go in the record's own statement when that
  // is one (no spend limit, balance enough); otherwise in a statement of their own after it.
  const send = await prepareSendInTransaction(tx, "generation/requested", startEvents(plan, deadlineAt));
  const { carried } = send;
  const recorded = await reserveAndRecord(tx, { ...plan, now }, carried ? { items: carried.items, columns: [carried.column] } : undefined);
  if (recorded.alongside) await send.sent(recorded.alongside.started_runs as string[]);
  else await send.sendAlone();
  return createdAnswer(plan);
}

/** The events a recorded generation sends: its run's, and its deadline's when it has one. */
export function startEvents(plan: GenerationPlan, deadlineAt: Date | null) {
  const requested = generationRequestedEvent(plan.generationId, plan.accountId, plan.providerOrder, deadlineAt);
  return deadlineAt ? [requested, generationDeadlineEvent(plan.generationId, plan.accountId, deadlineAt)] : [requested];
}

/** The create's answer once its record committed. */
export function createdAnswer(plan: GenerationPlan): GenerationCreated {
  return {
    model_identifier: plan.model.identifier,
    generation_provider_order: plan.providerOrder,
    generation_prediction_id: null,
    generation_id: plan.generationId,
    generation_initialized: true,
  };
}
