"use client";

import { useRef, type KeyboardEvent } from "react";
import { cn } from "@/components/ui";
import type { BillingInterval } from "./billing-types";

// Monthly / Yearly, as a segmented control: two toggle buttons (aria-pressed), Tab to reach,
// Enter/Space or the arrow keys to switch.

const options: Array<{ value: BillingInterval; label: string }> = [
  { value: "month", label: "Monthly" },
  { value: "year", label: "Yearly" },
];

export function IntervalSwitch({
  value,
  onChange,
  yearlyHint,
}: {
  value: BillingInterval;
  onChange: (interval: BillingInterval) => void;
  yearlyHint?: string | null;
}) {
  const buttons = useRef<Array<HTMLButtonElement | null>>([]);

  function onKeyDown(event: KeyboardEvent<HTMLButtonElement>, index: number) {
    if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
    event.preventDefault();
    const next = (index + (event.key === "ArrowRight" ? 1 : options.length - 1)) % options.length;
    onChange(options[next]!.value);
    buttons.current[next]?.focus();
  }

  return (
    <div role="group" aria-label="Billing interval" className="inline-flex rounded-md border border-zinc-200 bg-zinc-50 p-0.5">
      {options.map((option, index) => (
        <button
          key={option.value}
          ref={(element) => {
            buttons.current[index] = element;
          }}
          type="button"
          aria-pressed={value === option.value}
          onClick={() => onChange(option.value)}
          onKeyDown={(event) => onKeyDown(event, index)}
          className={cn(
            "rounded px-3 py-1 text-xs font-medium transition-colors outline-none focus-visible:ring-2 focus-visible:ring-zinc-900/10",
            value === option.value ? "bg-white text-zinc-900 shadow-xs ring-1 ring-zinc-200" : "text-zinc-500 hover:text-zinc-900",
          )}
        >
          {option.label}
          {option.value === "year" && yearlyHint && (
            <span className={cn("ml-1.5 font-normal", value === "year" ? "text-green-700" : "text-zinc-400")}>{yearlyHint}</span>
          )}
        </button>
      ))}
    </div>
  );
}
