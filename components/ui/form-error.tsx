import type { ReactNode } from "react";
import { cn } from "./cn";

/** A failed action's message, announced to screen readers; renders nothing without one. */
export function FormError({ children, className }: { children?: ReactNode; className?: string }) {
  if (!children) return null;
  return (
    <p role="alert" className={cn("rounded-md bg-red-50 px-3 py-2 text-sm text-red-700", className)}>
      {children}
    </p>
  );
}
