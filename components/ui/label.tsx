import type { ComponentProps } from "react";
import { cn } from "./cn";

export type LabelProps = ComponentProps<"label"> & {
  /** Adds a red asterisk; the control itself should still carry `required`. */
  required?: boolean;
};

export function Label({ required = false, className, children, ...props }: LabelProps) {
  return (
    <label className={cn("text-sm font-medium text-zinc-900", className)} {...props}>
      {children}
      {required && (
        <span aria-hidden className="ml-0.5 text-red-600">
          *
        </span>
      )}
    </label>
  );
}
