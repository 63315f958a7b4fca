// Cancel-After on a create, as Replicate takes it: a duration of whole hours, minutes, seconds and
// milliseconds in that order, each at most once ("90s", "5m", "1h30m", "2m500ms"), from 5 s to
// 24 h inclusive. A bare number, a fraction, a sign, spaces inside, units out of order or repeated
// are not durations.

export const CANCEL_AFTER_MIN_MS = 5_000;
export const CANCEL_AFTER_MAX_MS = 24 * 60 * 60 * 1000;

const pattern = /^(?:(\d{1,9})h)?(?:(\d{1,9})m(?!s))?(?:(\d{1,9})s)?(?:(\d{1,9})ms)?$/;

export type CancelAfter = { ok: true; ms: number } | { ok: false; message: string };

export function parseCancelAfter(value: string): CancelAfter {
  const match = pattern.exec(value.trim());
  if (!match || value.trim() === "")
    return { ok: false, message: 'must be a duration such as "90s", "5m" or "1h30m" (units h, m, s, ms, largest first)' };
  const [hours = 0, minutes = 0, seconds = 0, millis = 0] = match.slice(1).map((part) => Number(part ?? 0));
  const ms = ((hours * 60 + minutes) * 60 + seconds) * 1000 + millis;
  if (ms < CANCEL_AFTER_MIN_MS || ms > CANCEL_AFTER_MAX_MS) return { ok: false, message: "must be from 5s to 24h" };
  return { ok: true, ms };
}
