import { Badge, type BadgeTone } from "@/components/ui";
import type { HostnameStatus } from "./hostname-types";

const styles: Record<HostnameStatus, { label: string; tone: BadgeTone }> = {
  pending: { label: "Pending verification", tone: "amber" },
  active: { label: "Active", tone: "green" },
  failed: { label: "Failed", tone: "red" },
  removing: { label: "Removing", tone: "neutral" },
};

export function HostnameStatusBadge({ status }: { status: HostnameStatus }) {
  const style = styles[status];
  return (
    <Badge tone={style.tone} dot data-testid="hostname-status">
      {style.label}
    </Badge>
  );
}
