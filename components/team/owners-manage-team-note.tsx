import { Lock } from "lucide-react";
import { cn } from "@/components/ui";

/** Shown to members instead of the owners' buttons; the server refuses their changes anyway. */
export function OwnersManageTeamNote({ className }: { className?: string }) {
  return (
    <p className={cn("inline-flex items-center gap-1.5 rounded-md bg-zinc-100 px-2.5 py-1 text-xs font-medium text-zinc-600", className)}>
      <Lock className="size-3.5 text-zinc-400" aria-hidden />
      Only owners can invite people
    </p>
  );
}
