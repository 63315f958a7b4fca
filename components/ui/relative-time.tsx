"use client";

import { useEffect, useState } from "react";
import { cn } from "./cn";
import { formatRelative } from "./format-relative";

export type RelativeTimeProps = {
  /** An ISO string, a Date or epoch milliseconds. */
  date: string | Date | number;
  /** Intl style: "long" → "3 minutes ago", "short" → "3 min. ago", "narrow" → "3m ago". */
  format?: Intl.RelativeTimeFormatStyle;
  className?: string;
};

export function RelativeTime({ date, format = "long", className }: RelativeTimeProps) {
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    const interval = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(interval);
  }, []);

  const time = new Date(date).getTime();
  if (Number.isNaN(time)) return <span className={className}>—</span>;
  const iso = new Date(time).toISOString();

  // Server and browser clocks differ by the render gap, so the text may legitimately change on hydration.
  return (
    <time dateTime={iso} title={iso} className={cn("whitespace-nowrap", className)} suppressHydrationWarning>
      {formatRelative(time, now, format)}
    </time>
  );
}
