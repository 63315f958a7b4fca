"use client";

import { useEffect, useRef, useState, type RefObject } from "react";
import { Check, Copy, TextSelect, X } from "lucide-react";
import { cn } from "./cn";

type CopyState = "idle" | "copied" | "selected" | "failed";

const icons = { idle: Copy, copied: Check, selected: TextSelect, failed: X } as const;
const statusText = { copied: "Copied", selected: "Selected, press Ctrl+C to copy", failed: "Could not copy" } as const;

export type CopyButtonProps = {
  value: string;
  /** Element whose text is selected when the clipboard API is unavailable, so the user can press Ctrl+C. */
  selectTarget?: RefObject<HTMLElement | null>;
  /** Accessible name; defaults to "Copy". */
  label?: string;
  className?: string;
};

// navigator.clipboard exists only in secure contexts (https or localhost); plain-http deployments need a fallback.
async function writeToClipboard(value: string): Promise<boolean> {
  if (!navigator.clipboard || !window.isSecureContext) return false;
  try {
    await navigator.clipboard.writeText(value);
    return true;
  } catch {
    return false;
  }
}

function selectContents(element: HTMLElement): void {
  const selection = window.getSelection();
  if (!selection) return;
  const range = document.createRange();
  range.selectNodeContents(element);
  selection.removeAllRanges();
  selection.addRange(range);
}

function copyViaSelection(value: string, target: HTMLElement | null): boolean {
  if (target) {
    selectContents(target);
    return document.execCommand("copy");
  }
  const scratch = document.createElement("textarea");
  scratch.value = value;
  scratch.setAttribute("readonly", "");
  scratch.style.position = "fixed";
  scratch.style.opacity = "0";
  document.body.appendChild(scratch);
  scratch.select();
  const copied = document.execCommand("copy");
  scratch.remove();
  return copied;
}

export function CopyButton({ value, selectTarget, label = "Copy", className }: CopyButtonProps) {
  const [state, setState] = useState<CopyState>("idle");
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => () => clearTimeout(timer.current), []);

  async function copy() {
    const target = selectTarget?.current ?? null;
    const copied = (await writeToClipboard(value)) || copyViaSelection(value, target);
    // With a target the text stays selected for Ctrl+C; without one there is nothing left to offer.
    setState(copied ? "copied" : target ? "selected" : "failed");
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setState("idle"), 1500);
  }

  const Icon = icons[state];
  const status = state === "idle" ? label : statusText[state];

  return (
    <button
      type="button"
      onClick={copy}
      aria-label={status}
      title={status}
      className={cn(
        "inline-flex size-8 shrink-0 items-center justify-center rounded-md text-zinc-500 outline-none transition-colors",
        "hover:bg-zinc-100 hover:text-zinc-900 focus-visible:ring-2 focus-visible:ring-zinc-900/10 disabled:pointer-events-none disabled:opacity-50",
        state === "copied" && "text-green-600 hover:text-green-600",
        state === "failed" && "text-red-600 hover:text-red-600",
        className,
      )}
    >
      <Icon className="size-4" aria-hidden />
      <span className="sr-only" aria-live="polite">
        {state === "idle" ? "" : status}
      </span>
    </button>
  );
}
