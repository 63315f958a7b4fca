import { ChevronLeft, ChevronRight } from "lucide-react";
import { Button } from "./button";

// "1–25 of 240" with Previous / Next, for offset-paginated lists (webhook logs).

export type PaginationProps = {
  offset: number;
  limit: number;
  total: number;
  shown: number;
  onOffsetChange: (offset: number) => void;
  label: string;
};

export function Pagination({ offset, limit, total, shown, onOffsetChange, label }: PaginationProps) {
  const from = total === 0 ? 0 : offset + 1;
  const to = offset + shown;
  return (
    <nav aria-label={label} className="flex items-center justify-between gap-4 border-t border-zinc-200 px-5 py-3">
      <p className="text-xs text-zinc-500 tabular-nums">
        {from}–{to} of {total.toLocaleString("en")}
      </p>
      <div className="flex items-center gap-2">
        <Button variant="secondary" size="sm" disabled={offset === 0} onClick={() => onOffsetChange(Math.max(0, offset - limit))}>
          <ChevronLeft aria-hidden />
          Previous
        </Button>
        <Button variant="secondary" size="sm" disabled={offset + limit >= total} onClick={() => onOffsetChange(offset + limit)}>
          Next
          <ChevronRight aria-hidden />
        </Button>
      </div>
    </nav>
  );
}
