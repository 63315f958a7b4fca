import { cn } from "@/components/ui";

/** An endpoint URL in monospace, cut with an ellipsis when it does not fit (full text on hover). */
export function EndpointUrl({ url, className }: { url: string; className?: string }) {
  return (
    <span title={url} className={cn("block truncate font-mono text-[13px] text-zinc-900", className)}>
      {url}
    </span>
  );
}
