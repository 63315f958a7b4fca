import type { ComponentProps, ReactNode } from "react";
import { cn } from "./cn";

export function Card({ className, ...props }: ComponentProps<"div">) {
  return <div className={cn("rounded-lg border border-zinc-200 bg-white text-sm shadow-xs", className)} {...props} />;
}

export type CardHeaderProps = Omit<ComponentProps<"div">, "title"> & {
  title: ReactNode;
  description?: ReactNode;
  /** Rendered on the right, e.g. a button or a menu. */
  actions?: ReactNode;
};

export function CardHeader({ title, description, actions, className, children, ...props }: CardHeaderProps) {
  return (
    <div className={cn("flex items-start justify-between gap-4 border-b border-zinc-200 px-5 py-4", className)} {...props}>
      <div className="min-w-0 space-y-1">
        <h2 className="text-sm font-semibold text-zinc-900">{title}</h2>
        {description && <p className="text-sm text-zinc-500">{description}</p>}
        {children}
      </div>
      {actions && <div className="flex shrink-0 items-center gap-2">{actions}</div>}
    </div>
  );
}

export function CardBody({ className, ...props }: ComponentProps<"div">) {
  return <div className={cn("p-5", className)} {...props} />;
}

export function CardFooter({ className, ...props }: ComponentProps<"div">) {
  return (
    <div
      className={cn(
        "flex items-center justify-end gap-2 rounded-b-lg border-t border-zinc-200 bg-zinc-50 px-5 py-3 text-zinc-500",
        className,
      )}
      {...props}
    />
  );
}
