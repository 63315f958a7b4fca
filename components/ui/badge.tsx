import type { ComponentProps } from "react";
import { cn } from "./cn";

export type BadgeTone = "neutral" | "green" | "amber" | "red" | "blue";

const tones: Record<BadgeTone, { pill: string; dot: string }> = {
  neutral: { pill: "bg-zinc-100 text-zinc-700 ring-zinc-500/20", dot: "bg-zinc-400" },
  green: { pill: "bg-green-50 text-green-700 ring-green-600/20", dot: "bg-green-500" },
  amber: { pill: "bg-amber-50 text-amber-800 ring-amber-600/25", dot: "bg-amber-500" },
  red: { pill: "bg-red-50 text-red-700 ring-red-600/20", dot: "bg-red-500" },
  blue: { pill: "bg-blue-50 text-blue-700 ring-blue-600/20", dot: "bg-blue-500" },
};

export type BadgeProps = ComponentProps<"span"> & {
  tone?: BadgeTone;
  /** A small status dot before the text. */
  dot?: boolean;
};

export function Badge({ tone = "neutral", dot = false, className, children, ...props }: BadgeProps) {
  const style = tones[tone];
  return (
    <span
      className={cn(
        "inline-flex items-center gap-1.5 whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset",
        style.pill,
        className,
      )}
      {...props}
    >
      {dot && <span aria-hidden className={cn("size-1.5 rounded-full", style.dot)} />}
      {children}
    </span>
  );
}
