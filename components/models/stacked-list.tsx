import type { ReactNode } from "react";

// A table's rows on phones: one item per row, its name and status on the first line, the rest
// beneath. The table itself shows from `sm` up (`className="hidden sm:table"`).

export function StackedList({ children }: { children: ReactNode }) {
  return <ul className="divide-y divide-zinc-100 sm:hidden">{children}</ul>;
}

export function StackedItem({ title, aside, children }: { title: ReactNode; aside: ReactNode; children: ReactNode }) {
  return (
    <li className="space-y-1.5 px-5 py-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        {title}
        {aside}
      </div>
      {children}
    </li>
  );
}
