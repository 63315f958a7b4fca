import type { ComponentProps } from "react";
import { cn } from "./cn";
import { controlClassName } from "./control-class-name";

/** A native <select>, styled like Input; wrap it in Field for its label. */
export function Select({ className, ...props }: ComponentProps<"select">) {
  return <select className={cn(controlClassName, "h-9 cursor-pointer pr-8", className)} {...props} />;
}
