import type { ReactNode } from "react";
import type { LucideIcon } from "lucide-react";
import { cn } from "./cn";

export type StatProps = {
  label: ReactNode;
  value: ReactNode;
  hint?: ReactNode;
  icon?: LucideIcon;
  className?: string;
};

/** A self-contained card: drop several into a grid for an overview row. */
export function Stat({ label, value, hint, icon: Icon, className }: StatProps) {
  return (
    <div className={cn("rounded-lg border border-zinc-200 bg-white p-5 shadow-xs", className)}>
      <div className="flex items-center justify-between gap-2 text-sm font-medium text-zinc-500">
        <span className="truncate">{label}</span>
        {Icon && <Icon className="size-4 shrink-0 text-zinc-400" aria-hidden />}
      </div>
      <div className="mt-2 text-2xl font-semibold tracking-tight text-zinc-900 tabular-nums">{value}</div>
      {hint && <div className="mt-1 text-xs text-zinc-500">{hint}</div>}
    </div>
  );
}
