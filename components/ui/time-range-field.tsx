import { Field } from "./field";
import { Select } from "./select";

// "Any time, last hour … last 30 days": the time filter of the request log and the activity feed.
// The chosen range becomes a fixed start (`timeRangeStart`) when it is picked, so paging keeps the
// same query.

export type TimeRange = "any" | "1h" | "24h" | "7d" | "30d";

export const timeRanges: Record<TimeRange, { label: string; ms: number | null }> = {
  any: { label: "Any time", ms: null },
  "1h": { label: "Last hour", ms: 3_600_000 },
  "24h": { label: "Last 24 hours", ms: 86_400_000 },
  "7d": { label: "Last 7 days", ms: 7 * 86_400_000 },
  "30d": { label: "Last 30 days", ms: 30 * 86_400_000 },
};

/** The range's start from `now`, or undefined for "any time". */
export function timeRangeStart(range: TimeRange, now = Date.now()): Date | undefined {
  const ms = timeRanges[range].ms;
  return ms === null ? undefined : new Date(now - ms);
}

export function TimeRangeField({
  value,
  onChange,
  className,
}: {
  value: TimeRange;
  onChange: (range: TimeRange) => void;
  className?: string;
}) {
  return (
    <Field label="Time" className={className}>
      <Select value={value} onChange={(event) => onChange(event.target.value as TimeRange)}>
        {Object.entries(timeRanges).map(([range, { label }]) => (
          <option key={range} value={range}>
            {label}
          </option>
        ))}
      </Select>
    </Field>
  );
}
