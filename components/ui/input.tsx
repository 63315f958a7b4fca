import type { ComponentProps } from "react";
import { cn } from "./cn";
import { controlClassName } from "./control-class-name";

export function Input({ className, type = "text", ...props }: ComponentProps<"input">) {
  return <input type={type} className={cn(controlClassName, "h-9", className)} {...props} />;
}
