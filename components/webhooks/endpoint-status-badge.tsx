import { Badge } from "@/components/ui";

export function EndpointStatusBadge({ enabled }: { enabled: boolean }) {
  return enabled ? (
    <Badge tone="green" dot>
      Enabled
    </Badge>
  ) : (
    <Badge tone="neutral" dot>
      Disabled
    </Badge>
  );
}
