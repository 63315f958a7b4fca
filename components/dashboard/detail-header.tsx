import type { ReactNode } from "react";
import { cn } from "@/components/ui";

// The top of a detail page: the back link, the record's heading with its status beside it and a
// line under it, the owner's actions (or a read-only note) on the right, then any notice.

export type DetailHeaderProps = {
  backLink: ReactNode;
  /** The h1 and its status badge, on one wrapping line. */
  heading: ReactNode;
  subheading?: ReactNode;
  actions: ReactNode;
  /** E.g. a wider minimum for a long name. */
  titleClassName?: string;
  /** Notices under the heading (a failure, a disabled endpoint). */
  children?: ReactNode;
};

export function DetailHeader({ backLink, heading, subheading, actions, titleClassName, children }: DetailHeaderProps) {
  return (
    <div className="space-y-4">
      {backLink}
      <div className="flex flex-wrap items-start justify-between gap-x-6 gap-y-4">
        <div className={cn("min-w-0 flex-1 space-y-1.5", titleClassName)}>
          <div className="flex flex-wrap items-center gap-x-3 gap-y-2">{heading}</div>
          {subheading}
        </div>
        {actions}
      </div>
      {children}
    </div>
  );
}
