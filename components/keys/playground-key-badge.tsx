import { Badge } from "@/components/ui";

/** Marks the account's Dashboard playground key (server/playground): no value was ever issued. */
export function PlaygroundKeyBadge({ className }: { className?: string }) {
  return (
    <Badge tone="blue" className={className} title="Runs from the dashboard are attributed to this key; it has no value to use">
      Dashboard
    </Badge>
  );
}
