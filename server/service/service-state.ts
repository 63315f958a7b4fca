import type { Db } from "../base/db";
import { ApiError } from "../base/error-table";

// The operator's pause: while paused, no new generation starts (ERR3001, retry in a minute);
// reads, cancels and in-flight runs go on. Kept in PostgreSQL, so it survives restarts and holds
// for every instance; each instance reads it at most every few seconds.

export type ServiceState = { paused: boolean; reason: string | null; changed_at: string | null };

const CACHE_MS = 2_000;
export const PAUSED_RETRY_AFTER_SECONDS = 60;

let cached: { state: ServiceState; readAt: number } | undefined;

export async function getServiceState(db: Db, options: { fresh?: boolean } = {}): Promise<ServiceState> {
  if (!options.fresh && cached && Date.now() - cached.readAt < CACHE_MS) return cached.state;
  const row = await db.serviceState.findUnique({ where: { id: 1 } });
  const state: ServiceState = {
    paused: row?.paused ?? false,
    reason: row?.reason ?? null,
    changed_at: row?.changedAt.toISOString() ?? null,
  };
  cached = { state, readAt: Date.now() };
  return state;
}

export async function setServicePaused(db: Db, input: { paused: boolean; reason?: string | null }): Promise<ServiceState> {
  const reason = input.paused ? input.reason?.trim() || null : null;
  const row = await db.serviceState.upsert({
    where: { id: 1 },
    create: { id: 1, paused: input.paused, reason, changedAt: new Date() },
    update: { paused: input.paused, reason, changedAt: new Date() },
  });
  cached = undefined;
  return { paused: row.paused, reason: row.reason, changed_at: row.changedAt.toISOString() };
}

/** ERR3001 while the operator has paused the service. */
export async function assertAcceptingWork(db: Db): Promise<void> {
  const state = await getServiceState(db);
  if (!state.paused) return;
  throw new ApiError(
    "ERR3001",
    `The service is paused${state.reason ? `: ${state.reason}` : ""}. Retry later.`,
    { reason: state.reason, paused_at: state.changed_at },
    { "retry-after": String(PAUSED_RETRY_AFTER_SECONDS) },
  );
}

export type ServicePauseFields = { service_paused: boolean; service_paused_reason: string | null };

/** The pause as every health answer shows it. */
export async function servicePauseFields(db: Db): Promise<ServicePauseFields> {
  const state = await getServiceState(db);
  return { service_paused: state.paused, service_paused_reason: state.reason };
}
