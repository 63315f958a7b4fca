/** An endpoint's last-24-hour outcome: "12 delivered  2 failed  1 pending", zeros left out. */
export function DeliveryCounts({ delivered, failed, pending }: { delivered: number; failed: number; pending: number }) {
  if (delivered + failed + pending === 0) return <span className="text-xs text-zinc-400">No deliveries</span>;
  return (
    <div className="flex flex-wrap items-center gap-x-2 gap-y-0.5 text-xs tabular-nums">
      {delivered > 0 && <span className="text-zinc-700">{delivered} delivered</span>}
      {failed > 0 && <span className="font-medium text-red-700">{failed} failed</span>}
      {pending > 0 && <span className="text-blue-700">{pending} pending</span>}
    </div>
  );
}
