import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { cn } from "@/components/ui";

// A one-paragraph notice at the top of the billing page: read-only access, a Checkout that came
// back, a payment being applied.

type NoteTone = "neutral" | "green" | "amber";

const tones: Record<NoteTone, { box: string; icon: string }> = {
  neutral: { box: "border-zinc-200 bg-zinc-50 text-zinc-700", icon: "text-zinc-400" },
  green: { box: "border-green-200 bg-green-50 text-green-900", icon: "text-green-600" },
  amber: { box: "border-amber-200 bg-amber-50 text-amber-900", icon: "text-amber-600" },
};

export function BillingNote({
  icon: Icon,
  tone = "neutral",
  children,
  className,
}: {
  icon: LucideIcon;
  tone?: NoteTone;
  children: ReactNode;
  className?: string;
}) {
  const look = tones[tone];
  return (
    <div role="status" className={cn("flex items-start gap-2.5 rounded-lg border px-4 py-3 text-sm", look.box, className)}>
      <Icon className={cn("mt-0.5 size-4 shrink-0", look.icon)} aria-hidden />
      <div className="min-w-0">{children}</div>
    </div>
  );
}
