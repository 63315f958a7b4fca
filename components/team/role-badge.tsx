import { roleLabels } from "@/components/dashboard/account-context";
import { Badge } from "@/components/ui";
import type { MemberRole } from "@/server/base/generated/prisma/enums";

const tones = { primary_owner: "blue", owner: "green", member: "neutral" } as const;

export function RoleBadge({ role }: { role: MemberRole }) {
  return <Badge tone={tones[role]}>{roleLabels[role]}</Badge>;
}
