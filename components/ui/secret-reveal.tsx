"use client";

import { useId, useRef } from "react";
import { TriangleAlert } from "lucide-react";
import { cn } from "./cn";
import { CopyButton } from "./copy-button";

export type SecretRevealProps = {
  label: string;
  value: string;
  className?: string;
};

// Secrets are stored hashed, so this box is the user's only chance to take the value.
export function SecretReveal({ label, value, className }: SecretRevealProps) {
  const valueRef = useRef<HTMLElement>(null);
  const labelId = useId();

  return (
    <div className={cn("space-y-2", className)}>
      <div id={labelId} className="text-sm font-medium text-zinc-900">
        {label}
      </div>
      <div className="flex items-center gap-1 rounded-md border border-zinc-200 bg-zinc-50 py-1 pr-1 pl-3">
        <code ref={valueRef} aria-labelledby={labelId} className="min-w-0 flex-1 font-mono text-[13px] break-all text-zinc-900 select-all">
          {value}
        </code>
        <CopyButton value={value} selectTarget={valueRef} label={`Copy ${label}`} />
      </div>
      <p className="flex items-start gap-1.5 text-xs text-amber-700">
        <TriangleAlert className="mt-px size-3.5 shrink-0" aria-hidden />
        This is the only time it is shown. Copy it now and keep it somewhere safe.
      </p>
    </div>
  );
}
