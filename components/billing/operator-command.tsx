"use client";

import { useRef } from "react";
import { CopyButton } from "@/components/ui";

// One operator CLI line, in a code box with a copy button; long lines scroll instead of breaking the card.

export function OperatorCommand({ command, label }: { command: string; label: string }) {
  const codeRef = useRef<HTMLElement>(null);
  return (
    <div className="flex items-center gap-2 rounded-md border border-zinc-200 bg-zinc-950 py-1.5 pr-1.5 pl-3">
      <code ref={codeRef} className="min-w-0 flex-1 overflow-x-auto font-mono text-xs whitespace-nowrap text-zinc-100">
        {command}
      </code>
      <CopyButton value={command} selectTarget={codeRef} label={label} className="text-zinc-400 hover:bg-zinc-800 hover:text-zinc-100" />
    </div>
  );
}
