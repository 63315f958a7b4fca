"use client";

import { useState, type ReactNode } from "react";
import { Dialog } from "./dialog";
import { Field } from "./field";
import { Input } from "./input";
import { DialogActions } from "./dialog-actions";
import { FormError } from "./form-error";

// A deletion that cannot be undone: the user types a name to unlock the danger button (Enter
// submits once it matches). What is typed is cleared whenever the dialog closes.

export type TypedConfirmDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: string;
  /** What must be typed (the account's or the key's name). */
  expected: string;
  /** Compares what was typed with `expected`; exact by default. */
  matches?: (typed: string, expected: string) => boolean;
  label: ReactNode;
  confirmLabel: string;
  pending: boolean;
  /** The last attempt's error, shown under the field. */
  error: string | null;
  onConfirm: (typed: string) => void;
  /** Called when the dialog closes without a deletion (reset the mutation there). */
  onCancel?: () => void;
  /** Shown above the field: what is about to go. */
  children?: ReactNode;
};

const exactly = (typed: string, expected: string) => typed === expected;

export function TypedConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  expected,
  matches = exactly,
  label,
  confirmLabel,
  pending,
  error,
  onConfirm,
  onCancel,
  children,
}: TypedConfirmDialogProps) {
  const [typed, setTyped] = useState("");
  // Closed from outside too (after a deletion): what was typed goes with it.
  const [wasOpen, setWasOpen] = useState(open);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (!open) setTyped("");
  }
  const confirmed = matches(typed, expected);

  function close() {
    onOpenChange(false);
    setTyped("");
    onCancel?.();
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => (next ? onOpenChange(true) : close())}
      title={title}
      description={description}
      footer={
        <DialogActions
          onCancel={close}
          label={confirmLabel}
          variant="danger"
          disabled={!confirmed}
          pending={pending}
          onAction={() => onConfirm(typed)}
        />
      }
    >
      <form
        className="space-y-3 pb-2"
        onSubmit={(event) => {
          event.preventDefault();
          if (confirmed) onConfirm(typed);
        }}
      >
        {children}
        <Field label={label}>
          <Input
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
            placeholder={expected}
            autoComplete="off"
            spellCheck={false}
            autoFocus
          />
        </Field>
        <FormError>{error}</FormError>
      </form>
    </Dialog>
  );
}
