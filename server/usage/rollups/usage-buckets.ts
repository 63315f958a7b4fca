// How a read cuts its window [since, until] over the usage counters: whole UTC days from the daily
// rows, whole hours from the hourly rows and the changes not folded yet, and the two partial hours
// at its edges from the raw rows (at most an hour each). The parts never overlap and cover it all.

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

export type UsageBuckets = {
  since: Date;
  /** The first whole hour. */
  hoursFrom: Date;
  /** Whole days [daysFrom, daysUntil); equal when the window holds no whole day. */
  daysFrom: Date;
  daysUntil: Date;
  /** The end of the last whole hour; raw rows from here to `until` (inclusive). */
  hoursUntil: Date;
  until: Date;
};

const ceilTo = (at: number, span: number) => Math.ceil(at / span) * span;
const floorTo = (at: number, span: number) => Math.floor(at / span) * span;

export function usageBuckets(since: Date, until: Date): UsageBuckets {
  if (!(since.getTime() <= until.getTime())) throw new RangeError("since must not be after until");
  let hoursFrom = ceilTo(since.getTime(), HOUR_MS);
  let hoursUntil = floorTo(until.getTime(), HOUR_MS);
  if (hoursFrom > hoursUntil) hoursFrom = hoursUntil = since.getTime(); // inside one hour: all raw rows
  let daysFrom = ceilTo(hoursFrom, DAY_MS);
  let daysUntil = floorTo(hoursUntil, DAY_MS);
  if (daysFrom >= daysUntil) daysFrom = daysUntil = hoursUntil;
  return {
    since,
    hoursFrom: new Date(hoursFrom),
    daysFrom: new Date(daysFrom),
    daysUntil: new Date(daysUntil),
    hoursUntil: new Date(hoursUntil),
    until,
  };
}
