import type { ComponentProps } from "react";
import { cn } from "./cn";

// The wrapper scrolls horizontally so wide tables never break the page layout.
export function Table({ className, ...props }: ComponentProps<"table">) {
  return (
    <div className="w-full overflow-x-auto">
      <table className={cn("w-full border-collapse text-left text-sm", className)} {...props} />
    </div>
  );
}

export function THead({ className, ...props }: ComponentProps<"thead">) {
  return <thead className={cn("border-b border-zinc-200 bg-zinc-50/60", className)} {...props} />;
}

// Hover lives on TBody so header rows never highlight.
export function TBody({ className, ...props }: ComponentProps<"tbody">) {
  return <tbody className={cn("divide-y divide-zinc-100 [&>tr:hover]:bg-zinc-50", className)} {...props} />;
}

export function TR({ className, ...props }: ComponentProps<"tr">) {
  return <tr className={cn("transition-colors", className)} {...props} />;
}

export function TH({ className, scope = "col", ...props }: ComponentProps<"th">) {
  return <th scope={scope} className={cn("h-10 px-4 text-xs font-medium whitespace-nowrap text-zinc-500", className)} {...props} />;
}

export function TD({ className, ...props }: ComponentProps<"td">) {
  return <td className={cn("px-4 py-3 align-middle text-zinc-700", className)} {...props} />;
}
