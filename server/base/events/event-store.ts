import { randomBytes } from "node:crypto";
import type { PrismaClient } from "../generated/prisma/client";

// Events are durable before they are acknowledged: one INSERT … ON CONFLICT DO NOTHING, so a
// repeated caller id is accepted once (Inngest's idempotency; rows are purged after 24 h). Events
// without an id get a ULID; the SDK's x-inngest-event-id-seed makes a retried send reuse them.

export type JsonObject = { [key: string]: unknown };

/** An event as functions receive it (SDK_SPEC §1.3.4 in inngest/inngest). */
export type EventPayload = JsonObject & { id: string; name: string; data: JsonObject; ts: number };

export const EVENT_RETENTION_MS = 24 * 3_600_000;

/**
 * Inngest's event limits (https://www.inngest.com/docs/usage-limits/inngest): names up to 256
 * characters, up to 5,000 events per request, and an event of at most 256 KiB serialized, the
 * smallest plan's size (512 KiB self-hosted, up to 3 MiB on paid plans), so an event accepted
 * here is accepted by every Inngest.
 */
export const EVENT_LIMITS = { maxNameLength: 256, maxEventsPerRequest: 5000, maxEventBytes: 256 * 1024 };
export type EventLimits = typeof EVENT_LIMITS;

const crockford = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const FORTY_BITS = 2 ** 40;

/** `value` (a whole number below 2^53) in `length` Crockford base-32 digits, the last 5 bits last. */
function encode(value: number, length: number): string {
  let text = "";
  for (let i = 0; i < length; i += 1) {
    text = crockford[value % 32] + text;
    value = Math.floor(value / 32);
  }
  return text;
}

/**
 * ULIDs for a batch: from the SDK's seed ("<ms>,<base64 entropy>") when given, else random. The
 * 80 bits of entropy count up by one per event (wrapping), kept as two 40-bit halves: plain
 * numbers, where BigInt digits cost a generation's create about 25 µs.
 */
export function eventIds(count: number, seed: string | null, now: number): string[] {
  let time = now;
  let entropy = randomBytes(10);
  const [seedTime, seedEntropy] = seed?.split(",") ?? [];
  if (seedTime && seedEntropy && Number.isSafeInteger(Number(seedTime)) && Number(seedTime) >= 0) {
    const bytes = Buffer.from(seedEntropy, "base64");
    if (bytes.length === 10) [time, entropy] = [Number(seedTime), bytes];
  }
  const high = entropy.readUIntBE(0, 5);
  const low = entropy.readUIntBE(5, 5);
  const timePart = encode(time, 10);
  return Array.from({ length: count }, (_, index) => {
    const sum = low + index;
    return timePart + encode((high + Math.floor(sum / FORTY_BITS)) % FORTY_BITS, 8) + encode(sum % FORTY_BITS, 8);
  });
}

export class InvalidEventError extends Error {}

/** The event as functions will see it: the caller's fields plus id, ts and data filled in. */
export function normalizeEvent(raw: unknown, fallbackId: string, now: number): EventPayload {
  if (!raw || typeof raw !== "object" || typeof (raw as JsonObject).name !== "string" || !(raw as JsonObject).name) {
    throw new InvalidEventError("every event needs a name");
  }
  const event = raw as JsonObject;
  const data = event.data && typeof event.data === "object" && !Array.isArray(event.data) ? (event.data as JsonObject) : {};
  const id = typeof event.id === "string" && event.id !== "" ? event.id : fallbackId;
  const ts = typeof event.ts === "number" && Number.isFinite(event.ts) && event.ts > 0 ? event.ts : now;
  return { ...event, id, name: event.name as string, data, ts };
}

/** Refuses what Inngest would refuse at its event API (the whole request, as Inngest does). */
export function checkEventLimits(events: EventPayload[], limits: EventLimits = EVENT_LIMITS) {
  if (events.length > limits.maxEventsPerRequest)
    throw new InvalidEventError(`${events.length} events in one request: at most ${limits.maxEventsPerRequest} may be sent at once`);
  for (const event of events) {
    if (event.name.length > limits.maxNameLength)
      throw new InvalidEventError(`event name "${event.name.slice(0, 40)}…" is longer than ${limits.maxNameLength} characters`);
    const bytes = Buffer.byteLength(JSON.stringify(event));
    if (bytes > limits.maxEventBytes)
      throw new InvalidEventError(`event ${event.name} is ${bytes} bytes: events may be at most ${limits.maxEventBytes} bytes`);
  }
}

/** Writes the events (a repeated id is skipped) and returns their ids in order. */
export async function persistEvents(
  db: PrismaClient,
  appId: string,
  rawEvents: unknown[],
  options: { now: number; seed?: string | null; limits?: EventLimits },
): Promise<string[]> {
  const fallbackIds = eventIds(rawEvents.length, options.seed ?? null, options.now);
  const events = rawEvents.map((raw, index) => normalizeEvent(raw, fallbackIds[index] as string, options.now));
  if (events.length === 0) return [];
  checkEventLimits(events, options.limits);
  await db.inngestEvent.createMany({
    data: events.map((event) => ({ appId, id: event.id, name: event.name, payload: event as object, receivedAt: new Date(options.now) })),
    skipDuplicates: true,
  });
  return events.map((event) => event.id);
}
