"use client";

import { useSyncExternalStore } from "react";
import { cn } from "./cn";

// A date or time in the viewer's time zone. The server renders the page in its own zone, which is
// rarely the viewer's: the server's HTML and the browser's first (hydrating) render both show UTC,
// marked as such, and the browser then switches to local time. Hours run 00–23 everywhere (Node's
// `hour12: false` prints midnight as "24"), so server and browser never disagree on the text.

export type DateTimeStyle = "date" | "datetime" | "clock" | "log";

const options: Record<DateTimeStyle, Intl.DateTimeFormatOptions> = {
  date: { dateStyle: "medium" },
  datetime: { month: "short", day: "numeric", year: "numeric", hour: "2-digit", minute: "2-digit", hourCycle: "h23" },
  clock: { hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" },
  log: { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" },
};

/** The text for `date` in `style`, in `timeZone` (the runtime's own zone when omitted). */
export function formatDateTime(date: string | Date | number, style: DateTimeStyle, timeZone?: string): string {
  const time = new Date(date);
  if (Number.isNaN(time.getTime())) return "—";
  return new Intl.DateTimeFormat("en", { ...options[style], ...(timeZone ? { timeZone } : {}) }).format(time);
}

const noSubscription = () => () => {};

/** False while the server renders and while the browser hydrates; true afterwards. */
export function useHydrated() {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}

export function DateTime({
  date,
  style = "datetime",
  className,
  title,
}: {
  date: string | Date | number;
  style?: DateTimeStyle;
  className?: string;
  title?: string;
}) {
  const hydrated = useHydrated();
  const iso = Number.isNaN(new Date(date).getTime()) ? undefined : new Date(date).toISOString();
  const text = hydrated ? formatDateTime(date, style) : `${formatDateTime(date, style, "UTC")}${style === "date" ? "" : " UTC"}`;
  return (
    <time dateTime={iso} title={title ?? iso} className={cn("tabular-nums", className)}>
      {text}
    </time>
  );
}
