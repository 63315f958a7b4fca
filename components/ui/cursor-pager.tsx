"use client";

import { ChevronLeft, ChevronRight } from "lucide-react";
import { Button } from "./button";

// Newer / Older paging over a cursor-paged list (request logs, activity, ledger, orders): `cursors` is the stack of
// cursors of the pages seen so far, the first one undefined (the newest page).

export type CursorStack = Array<string | undefined>;

export function CursorPager(props: {
  label: string;
  cursors: CursorStack;
  onChange: (cursors: CursorStack) => void;
  nextCursor: string | null | undefined;
  shown: number;
  noun: [one: string, many: string];
  busy: boolean;
}) {
  const { label, cursors, onChange, nextCursor, shown, noun, busy } = props;
  return (
    <nav aria-label={label} className="flex items-center justify-between gap-4 border-t border-zinc-200 px-5 py-3">
      <p className="text-xs text-zinc-500 tabular-nums">
        Page {cursors.length} · {shown} {shown === 1 ? noun[0] : noun[1]}
      </p>
      <div className="flex items-center gap-2">
        <Button variant="secondary" size="sm" disabled={cursors.length === 1} onClick={() => onChange(cursors.slice(0, -1))}>
          <ChevronLeft aria-hidden />
          Newer
        </Button>
        <Button
          variant="secondary"
          size="sm"
          disabled={!nextCursor || busy}
          onClick={() => nextCursor && onChange([...cursors, nextCursor])}
        >
          Older
          <ChevronRight aria-hidden />
        </Button>
      </div>
    </nav>
  );
}
