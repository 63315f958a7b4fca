import type { ComponentProps } from "react";
import { cn } from "./cn";

export function Skeleton({ className, ...props }: ComponentProps<"div">) {
  return <div aria-hidden className={cn("h-4 animate-pulse rounded-md bg-zinc-200/70", className)} {...props} />;
}

// Varied widths so a loading table reads as rows of text, not a grid of bars.
const widths = ["w-3/4", "w-1/2", "w-2/3", "w-1/3", "w-5/12"] as const;

export type SkeletonRowsProps = {
  rows?: number;
  columns?: number;
};

/** Placeholder `<tr>`s; render inside a TBody while a table's data loads. */
export function SkeletonRows({ rows = 5, columns = 4 }: SkeletonRowsProps) {
  return Array.from({ length: rows }, (_, row) => (
    <tr key={row} aria-hidden>
      {Array.from({ length: columns }, (_, column) => (
        <td key={column} className="px-4 py-3">
          <Skeleton className={widths[(row + column) % widths.length]} />
        </td>
      ))}
    </tr>
  ));
}
