import type { ReactNode } from "react";
import { cn } from "@/components/ui";

/** One settings group: its title and explanation on the left (above on phones), the card on the right. */
export function SettingsSection({
  id,
  title,
  description,
  children,
  className,
}: {
  id: string;
  title: string;
  description: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  return (
    <section
      aria-labelledby={`${id}-title`}
      className={cn(
        "grid gap-4 border-t border-zinc-200 pt-8 first:border-t-0 first:pt-0 md:grid-cols-[minmax(0,16rem)_minmax(0,1fr)] md:gap-10",
        className,
      )}
    >
      <div className="space-y-1.5">
        <h2 id={`${id}-title`} className="text-base font-semibold text-zinc-900">
          {title}
        </h2>
        <div className="text-sm leading-relaxed text-zinc-500">{description}</div>
      </div>
      <div className="min-w-0">{children}</div>
    </section>
  );
}
