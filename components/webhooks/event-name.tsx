import { cn } from "@/components/ui";

/** An event kind as code: `generation.completed`. */
export function EventName({ event, className }: { event: string; className?: string }) {
  return <code className={cn("font-mono text-[12.5px] whitespace-nowrap text-zinc-800", className)}>{event}</code>;
}
