import { useId, type ReactNode } from "react";
import { cn } from "@/components/ui";

// One choice of a radio group, drawn as a bordered option: the whole card is the click target, the
// title alone is the radio's accessible name (getByLabel("Presigned links")), the description
// describes it, and `children` (the choice's own control) shows only while it is chosen.

export type RadioCardProps = {
  name: string;
  value: string;
  checked: boolean;
  onChange: (value: string) => void;
  title: ReactNode;
  description?: ReactNode;
  disabled?: boolean;
  children?: ReactNode;
};

export function RadioCard({ name, value, checked, onChange, title, description, disabled, children }: RadioCardProps) {
  const id = useId();
  return (
    <div
      className={cn(
        "rounded-lg border bg-white transition-colors",
        checked ? "border-zinc-900 bg-zinc-50/60 shadow-xs" : "border-zinc-200 hover:border-zinc-300",
        disabled && "opacity-60",
      )}
    >
      <label htmlFor={id} className={cn("flex items-start gap-3 px-3.5 py-3", disabled ? "cursor-not-allowed" : "cursor-pointer")}>
        <input
          id={id}
          type="radio"
          name={name}
          value={value}
          checked={checked}
          disabled={disabled}
          onChange={() => onChange(value)}
          aria-labelledby={`${id}-title`}
          aria-describedby={description ? `${id}-description` : undefined}
          className="mt-0.5 size-4 shrink-0 cursor-pointer accent-zinc-900 outline-none focus-visible:ring-2 focus-visible:ring-zinc-900/10 focus-visible:ring-offset-1 disabled:cursor-not-allowed"
        />
        <span className="min-w-0 space-y-0.5">
          <span id={`${id}-title`} className="block text-sm font-medium text-zinc-900">
            {title}
          </span>
          {description && (
            <span id={`${id}-description`} className="block text-[13px] leading-relaxed text-zinc-500">
              {description}
            </span>
          )}
        </span>
      </label>
      {checked && children ? <div className="px-3.5 pb-3.5 pl-10">{children}</div> : null}
    </div>
  );
}
