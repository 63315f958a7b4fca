import type { ComponentProps } from "react";
import { cn } from "./cn";
import { controlClassName } from "./control-class-name";

export function Textarea({ className, rows = 4, ...props }: ComponentProps<"textarea">) {
  return <textarea rows={rows} className={cn(controlClassName, "min-h-20 resize-y py-2", className)} {...props} />;
}
