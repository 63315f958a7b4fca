// The y axis of every dashboard chart: ticks at "nice" steps (1, 2 or 5 × a power of ten), never
// finer than the unit's smallest amount (one request; one millicredit, the ledger's precision),
// labelled with as many decimals as the step needs, the same for every tick. Recharts' own ticks,
// rounded by a formatter, showed 0.002, 0.002, 0.001, 0.001, 0.00 for a spend of at most 0.002.

export type AxisUnit = "count" | "credits";

export type ValueAxis = { domain: [number, number]; ticks: number[]; tickFormatter: (value: number) => string };

const SMALLEST_STEP: Record<AxisUnit, number> = { count: 1, credits: 0.001 };
/** Credits read as money: at least two decimals. */
const MIN_DECIMALS: Record<AxisUnit, number> = { count: 0, credits: 2 };
const TICK_COUNT = 5;

const decimalsOf = (step: number) => Math.max(0, -Math.floor(Math.log10(step) + 1e-9));

function niceStep(max: number, smallest: number): number {
  const raw = max / (TICK_COUNT - 1);
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const nice = [1, 2, 5, 10].map((factor) => factor * magnitude).find((step) => step >= raw - 1e-12) ?? 10 * magnitude;
  return Math.max(nice, smallest);
}

/** The axis for bars whose tallest (stacked) value is the largest of `values`. */
export function valueAxis(values: readonly number[], unit: AxisUnit): ValueAxis {
  const smallest = SMALLEST_STEP[unit];
  const max = Math.max(0, ...values.filter(Number.isFinite));
  const step = max > 0 ? niceStep(max, smallest) : smallest;
  const decimals = Math.max(MIN_DECIMALS[unit], decimalsOf(step));
  const count = Math.max(1, Math.ceil(max / step - 1e-9));
  const ticks = Array.from({ length: count + 1 }, (_, index) => Number((index * step).toFixed(decimals)));
  const format = new Intl.NumberFormat("en", { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
  return { domain: [0, ticks[ticks.length - 1] as number], ticks, tickFormatter: (value: number) => format.format(value) };
}
