import type { ComponentProps, ReactNode } from "react";
import { cn } from "./cn";

export type CheckboxProps = Omit<ComponentProps<"input">, "type"> & {
  label?: ReactNode;
  description?: ReactNode;
};

export function Checkbox({ label, description, className, ...props }: CheckboxProps) {
  const box = (
    <input
      type="checkbox"
      className={cn(
        "size-4 shrink-0 cursor-pointer accent-zinc-900 outline-none",
        "focus-visible:ring-2 focus-visible:ring-zinc-900/10 focus-visible:ring-offset-1 disabled:cursor-not-allowed disabled:opacity-50",
        label ? "mt-0.5" : className,
      )}
      {...props}
    />
  );
  if (!label) return box;
  return (
    <label
      className={cn("flex cursor-pointer items-start gap-2.5 text-sm has-disabled:cursor-not-allowed has-disabled:opacity-60", className)}
    >
      {box}
      <span className="space-y-0.5">
        <span className="block font-medium text-zinc-900">{label}</span>
        {description && <span className="block text-zinc-500">{description}</span>}
      </span>
    </label>
  );
}
