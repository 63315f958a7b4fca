import { cn } from "@/components/ui";

// A person in the team lists: an initial, the name (when known) and the e-mail address.

export function Person({ name, email, you = false, className }: { name: string | null; email: string; you?: boolean; className?: string }) {
  return (
    <div className={cn("flex min-w-0 items-center gap-3", className)}>
      <span
        aria-hidden
        className="flex size-8 shrink-0 items-center justify-center rounded-full bg-zinc-100 text-xs font-semibold text-zinc-600 uppercase"
      >
        {(name ?? email).slice(0, 1)}
      </span>
      <div className="min-w-0">
        <p className="truncate font-medium text-zinc-900" title={email}>
          {name ?? email}
          {you ? <span className="ml-1.5 text-xs font-normal text-zinc-500">(you)</span> : null}
        </p>
        {name ? <p className="truncate text-xs text-zinc-500">{email}</p> : null}
      </div>
    </div>
  );
}
