"use client";

import type { ReactNode } from "react";
import { errorMessage } from "@/components/trpc/react";
import { Dialog, DialogActions, FormError } from "@/components/ui";

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

export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  variant = "danger",
  pending,
  error,
  onConfirm,
  children,
}: ConfirmDialogProps) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={title}
      description={description}
      footer={
        <DialogActions onCancel={() => onOpenChange(false)} label={confirmLabel} variant={variant} pending={pending} onAction={onConfirm} />
      }
    >
      {children || error ? (
        <div className="space-y-3 pb-2">
          {children}
          <FormError>{error ? errorMessage(error) : null}</FormError>
        </div>
      ) : null}
    </Dialog>
  );
}
