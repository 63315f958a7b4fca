import { cloneElement, useId, type ReactElement, type ReactNode } from "react";
import { cn } from "./cn";
import { Label } from "./label";

/** The props Field injects into its single control child. */
export type FieldControlProps = {
  id?: string;
  "aria-describedby"?: string;
  "aria-invalid"?: boolean | "true" | "false" | "grammar" | "spelling";
  required?: boolean;
};

export type FieldProps = {
  label: ReactNode;
  /** One control element (Input, Textarea, select…); Field gives it id and aria wiring. */
  children: ReactElement<FieldControlProps>;
  hint?: ReactNode;
  /** When set, shown in red and the control is marked aria-invalid. */
  error?: ReactNode;
  required?: boolean;
  id?: string;
  className?: string;
};

export function Field({ label, children, hint, error, required = false, id, className }: FieldProps) {
  const generatedId = useId();
  const controlId = id ?? children.props.id ?? generatedId;
  const hintId = `${controlId}-hint`;
  const errorId = `${controlId}-error`;
  const describedBy =
    [children.props["aria-describedby"], hint ? hintId : undefined, error ? errorId : undefined].filter(Boolean).join(" ") || undefined;

  return (
    <div className={cn("flex flex-col gap-1.5", className)}>
      <Label htmlFor={controlId} required={required}>
        {label}
      </Label>
      {cloneElement(children, {
        id: controlId,
        "aria-describedby": describedBy,
        "aria-invalid": error ? true : children.props["aria-invalid"],
        required: required || children.props.required,
      })}
      {hint && (
        <p id={hintId} className="text-xs text-zinc-500">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="text-xs font-medium text-red-600">
          {error}
        </p>
      )}
    </div>
  );
}
