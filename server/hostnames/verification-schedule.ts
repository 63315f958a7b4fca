// When the CNAME is checked again: 1, 5, 15 and 30 minutes after the checks before, then every
// hour, then every two hours, until 24 h after the check was requested; the last check falls on
// that deadline, and a hostname still not pointing at the target then is `failed`.

export const VERIFICATION_WINDOW_MS = 24 * 60 * 60 * 1000;

const DELAYS_SECONDS = [60, 5 * 60, 15 * 60, 30 * 60, 60 * 60, 60 * 60];
const LATER_DELAY_SECONDS = 2 * 60 * 60;

/** The moment a verification started at `startedAt` gives up. */
export function verificationDeadline(startedAt: Date): Date {
  return new Date(startedAt.getTime() + VERIFICATION_WINDOW_MS);
}

/** Seconds until the next check after `attempts` checks (1 or more), never past the deadline; null when none is left. */
export function nextCheckInSeconds(attempts: number, startedAt: Date, now: Date): number | null {
  const left = Math.ceil((verificationDeadline(startedAt).getTime() - now.getTime()) / 1000);
  if (left <= 0) return null;
  const delay = DELAYS_SECONDS[attempts - 1] ?? LATER_DELAY_SECONDS;
  return Math.max(1, Math.min(delay, left));
}
