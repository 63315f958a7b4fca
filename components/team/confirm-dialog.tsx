"use client";

import type { ReactNode } from "react";
import { errorMessage } from "@/components/trpc/react";
import { Button, Dialog } from "@/components/ui";

// One confirmation for the team's irreversible actions (remove, leave, transfer, revoke): what
// happens, the action, and the server's refusal when there is one.

export type ConfirmDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  variant?: "primary" | "danger";
  pending: boolean;
  error: unknown;
  onConfirm: () => void;
  children?: ReactNode;
};

export function ConfirmDialog({ open, onOpenChange, title, description, confirmLabel, variant = "danger", pending, error, onConfirm, children }: ConfirmDialogProps) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={title}
      description={description}
      footer={
        <>
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button variant={variant} loading={pending} onClick={onConfirm}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      {children || error ? (
        <div className="space-y-3 pb-2">
          {children}
          {error ? (
            <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
              {errorMessage(error)}
            </p>
          ) : null}
        </div>
      ) : null}
    </Dialog>
  );
}
