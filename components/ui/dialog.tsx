"use client";

import { useEffect, useId, useRef, type MouseEvent, type ReactNode } from "react";
import { X } from "lucide-react";
import { cn } from "./cn";

export type DialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  /** The body. */
  children?: ReactNode;
  /** Action buttons, right-aligned in the footer. */
  footer?: ReactNode;
  size?: "sm" | "md" | "lg";
  className?: string;
};

const widths = { sm: "max-w-sm", md: "max-w-lg", lg: "max-w-2xl" } as const;

// Native <dialog> + showModal() gives focus trapping, the top layer, inert background and Escape for free.
export function Dialog({ open, onOpenChange, title, description, children, footer, size = "md", className }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const pressStartedOnBackdrop = useRef(false);
  const titleId = useId();
  const descriptionId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  // The dialog closes itself on Escape; report that so the parent's state follows.
  function handleClose() {
    if (open) onOpenChange(false);
  }

  // Clicks on the ::backdrop target the <dialog> itself; the content lives in an inner element.
  function handleMouseDown(event: MouseEvent<HTMLDialogElement>) {
    pressStartedOnBackdrop.current = event.target === event.currentTarget;
  }
  function handleClick(event: MouseEvent<HTMLDialogElement>) {
    if (pressStartedOnBackdrop.current && event.target === event.currentTarget) onOpenChange(false);
    pressStartedOnBackdrop.current = false;
  }

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      onClose={handleClose}
      onMouseDown={handleMouseDown}
      onClick={handleClick}
      className={cn(
        "m-auto w-[calc(100%-2rem)] rounded-xl border border-zinc-200 bg-white p-0 text-sm text-zinc-900 shadow-xl outline-none",
        "backdrop:bg-zinc-950/40 backdrop:backdrop-blur-[1px]",
        widths[size],
        className,
      )}
    >
      {open && (
        <div className="relative flex max-h-[85vh] flex-col">
          <div className="space-y-1 px-5 pt-5 pr-12 pb-3">
            <h2 id={titleId} className="text-base font-semibold">
              {title}
            </h2>
            {description && (
              <p id={descriptionId} className="text-zinc-500">
                {description}
              </p>
            )}
          </div>
          {children && <div className="overflow-y-auto px-5 py-2">{children}</div>}
          {footer ? (
            <div className="mt-3 flex items-center justify-end gap-2 rounded-b-xl border-t border-zinc-200 bg-zinc-50 px-5 py-3">
              {footer}
            </div>
          ) : (
            <div className="h-3" />
          )}
          {/* Last in DOM order so showModal() focuses the first field or action, not the close button. */}
          <button
            type="button"
            aria-label="Close"
            onClick={() => onOpenChange(false)}
            className="absolute top-4 right-4 rounded-md p-1 text-zinc-400 outline-none transition-colors hover:bg-zinc-100 hover:text-zinc-700 focus-visible:ring-2 focus-visible:ring-zinc-900/10"
          >
            <X className="size-4" aria-hidden />
          </button>
        </div>
      )}
    </dialog>
  );
}
