// Waiting in tests: for a state, never for a length of time. `until` polls a probe until it gives a
// truthy value and returns that value; the timeout is only there so a hang fails with a name.

/** Generous: a loaded 2-core machine running two suites at once is slow, and a hang still fails well inside vitest's 90 s. */
export const UNTIL_TIMEOUT_MS = 60_000;

type Truthy<T> = Exclude<T, false | null | undefined | 0 | "">;

export type UntilOptions = {
  /** Fail after this long (default UNTIL_TIMEOUT_MS). */
  timeoutMs?: number;
  /** Between two probes (default 20 ms; more for probes that cost a request). */
  everyMs?: number;
};

/** The wait ran out: `label` was not so in time. */
export class UntilTimeout extends Error {}

/**
 * Polls `probe` until it returns a truthy value (or a promise of one) and returns it. `label` says
 * what is awaited ("delivery 3 settled"): it is the error's message when the time runs out, with
 * the last value the probe gave. A probe that throws ends the wait with its error.
 */
export async function until<T>(
  probe: () => T | Promise<T>,
  label: string,
  { timeoutMs = UNTIL_TIMEOUT_MS, everyMs = 20 }: UntilOptions = {},
): Promise<Truthy<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value as Truthy<T>;
    if (Date.now() > deadline)
      throw new UntilTimeout(`until: ${label}: not so after ${timeoutMs} ms (the probe last gave ${describe(value)})`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

function describe(value: unknown): string {
  if (typeof value === "string") return value.slice(0, 300);
  try {
    return (JSON.stringify(value) ?? String(value)).slice(0, 300);
  } catch {
    return String(value);
  }
}
