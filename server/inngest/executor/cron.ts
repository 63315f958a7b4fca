// Cron triggers: standard five-field expressions (minute hour day-of-month month day-of-week) with
// *, lists, ranges, steps and month/day names, plus @hourly-style macros. Times are UTC; a
// leading "TZ=…" is accepted and ignored. Day-of-month and day-of-week both restricted means
// either may match, as in Vixie cron.

type CronSchedule = {
  minutes: Set<number>;
  hours: Set<number>;
  days: Set<number>;
  months: Set<number>;
  weekdays: Set<number>;
  daysRestricted: boolean;
  weekdaysRestricted: boolean;
};

const macros: Record<string, string> = {
  "@yearly": "0 0 1 1 *",
  "@annually": "0 0 1 1 *",
  "@monthly": "0 0 1 * *",
  "@weekly": "0 0 * * 0",
  "@daily": "0 0 * * *",
  "@midnight": "0 0 * * *",
  "@hourly": "0 * * * *",
};
const monthNames = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"];
const dayNames = ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"];

function parseField(field: string, min: number, max: number, names: string[] = [], namesStart = min): Set<number> {
  const values = new Set<number>();
  const value = (text: string) => {
    const byName = names.indexOf(text.toUpperCase());
    const number = byName >= 0 ? byName + namesStart : Number(text);
    if (!Number.isInteger(number) || number < min || number > max) throw new Error(`"${text}" is out of range ${min}-${max}`);
    return number;
  };
  for (const part of field.split(",")) {
    const [range = "", stepText] = part.split("/");
    const step = stepText === undefined ? 1 : Number(stepText);
    if (!Number.isInteger(step) || step < 1) throw new Error(`bad step in "${part}"`);
    let [from, to] = [min, max];
    if (range !== "*") {
      const [start = "", end] = range.split("-");
      from = value(start);
      to = end === undefined ? (stepText === undefined ? from : max) : value(end);
    }
    for (let n = from; n <= to; n += step) values.add(n);
  }
  return values;
}

const cache = new Map<string, CronSchedule>();

export function parseCron(expression: string): CronSchedule {
  const cached = cache.get(expression);
  if (cached) return cached;
  let text = expression.trim().replace(/^(CRON_)?TZ=\S+\s+/, "");
  text = macros[text.toLowerCase()] ?? text;
  const fields = text.split(/\s+/);
  if (fields.length !== 5) throw new Error(`cron "${expression}" must have five fields`);
  const [minute, hour, day, month, weekday] = fields as [string, string, string, string, string];
  const weekdays = parseField(weekday, 0, 7, dayNames, 0);
  if (weekdays.delete(7)) weekdays.add(0);
  const schedule: CronSchedule = {
    minutes: parseField(minute, 0, 59),
    hours: parseField(hour, 0, 23),
    days: parseField(day, 1, 31),
    months: parseField(month, 1, 12, monthNames, 1),
    weekdays,
    daysRestricted: !day.startsWith("*"),
    weekdaysRestricted: !weekday.startsWith("*"),
  };
  cache.set(expression, schedule);
  return schedule;
}

function dayMatches(schedule: CronSchedule, date: Date): boolean {
  const byDay = schedule.days.has(date.getUTCDate());
  const byWeekday = schedule.weekdays.has(date.getUTCDay());
  if (schedule.daysRestricted && schedule.weekdaysRestricted) return byDay || byWeekday;
  return byDay && byWeekday;
}

/** The first tick strictly after `after` (epoch ms), on a whole minute. */
export function nextCronTick(expression: string, after: number): number {
  const schedule = parseCron(expression);
  const date = new Date(Math.floor(after / 60_000) * 60_000 + 60_000);
  const limit = after + 5 * 366 * 86_400_000;
  while (date.getTime() <= limit) {
    if (!schedule.months.has(date.getUTCMonth() + 1)) {
      date.setUTCMonth(date.getUTCMonth() + 1, 1);
      date.setUTCHours(0, 0, 0, 0);
    } else if (!dayMatches(schedule, date)) {
      date.setUTCDate(date.getUTCDate() + 1);
      date.setUTCHours(0, 0, 0, 0);
    } else if (!schedule.hours.has(date.getUTCHours())) {
      date.setUTCHours(date.getUTCHours() + 1, 0, 0, 0);
    } else if (!schedule.minutes.has(date.getUTCMinutes())) {
      date.setUTCMinutes(date.getUTCMinutes() + 1, 0, 0);
    } else {
      return date.getTime();
    }
  }
  throw new Error(`cron "${expression}" has no tick in the next five years`);
}
