import { Lock } from "lucide-react";
import { cn } from "./cn";

/** Shown to members instead of the owners' buttons ("Only owners can …"); the server refuses their changes anyway. */
export function ReadOnlyNote({ children, className }: { children: React.ReactNode; className?: string }) {
  return (
    <p className={cn("inline-flex items-center gap-1.5 rounded-md bg-zinc-100 px-2.5 py-1 text-xs font-medium text-zinc-600", className)}>
      <Lock className="size-3.5 shrink-0 text-zinc-400" aria-hidden />
      {children}
    </p>
  );
}
