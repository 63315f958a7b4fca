import type { ReactNode } from "react";
import { Button, type ButtonVariant } from "./button";

// The footer most dialogs end with: Cancel, then the action, which spins while it runs. The action
// either submits the dialog's form (by its id: the footer sits outside the form) or runs onAction.

export type DialogActionsProps = {
  onCancel: () => void;
  cancelLabel?: ReactNode;
  /** The action's label, e.g. "Create key". */
  label: ReactNode;
  pending: boolean;
  /** The id of the form the action submits. */
  form?: string;
  onAction?: () => void;
  variant?: ButtonVariant;
  disabled?: boolean;
};

export function DialogActions({ onCancel, cancelLabel = "Cancel", label, pending, form, onAction, variant, disabled }: DialogActionsProps) {
  return (
    <>
      <Button variant="secondary" onClick={onCancel}>
        {cancelLabel}
      </Button>
      <Button type={form ? "submit" : "button"} form={form} variant={variant} disabled={disabled} loading={pending} onClick={onAction}>
        {label}
      </Button>
    </>
  );
}
