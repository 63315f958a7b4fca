"use client";

import { LifeBuoy, Menu, X } from "lucide-react";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useEffect, useId, useState } from "react";
import { AccountSwitcher } from "./account-switcher";
import { ReportProblemDialog } from "./report-problem-dialog";
import { SidebarNav } from "./sidebar-nav";

// The dashboard's navigation on phones: a Menu button in the header opens a panel with the account
// switcher, every section (the sidebar is hidden below md) and "Report a problem". It closes on
// navigation and Escape.

type Accounts = Parameters<typeof AccountSwitcher>[0]["accounts"];

export function MobileNav({ accounts, accountId }: { accounts: Accounts; accountId: string }) {
  const [open, setOpen] = useState(false);
  const [reporting, setReporting] = useState(false);
  const pathname = usePathname();
  const panelId = useId();
  const [shownFor, setShownFor] = useState(pathname);
  if (shownFor !== pathname) {
    setShownFor(pathname);
    setOpen(false);
  }

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => event.key === "Escape" && setOpen(false);
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [open]);

  return (
    <div className="md:hidden">
      <div className="flex items-center gap-2">
        <button
          type="button"
          aria-expanded={open}
          aria-controls={panelId}
          onClick={() => setOpen((value) => !value)}
          className="inline-flex items-center gap-1.5 rounded-md border border-zinc-200 px-2.5 py-1.5 text-sm font-medium text-zinc-700 hover:bg-zinc-50"
        >
          {open ? <X className="size-4" aria-hidden /> : <Menu className="size-4" aria-hidden />}
          Menu
        </button>
        <Link href="/dashboard" className="text-[15px] font-semibold tracking-tight text-zinc-900">
          Darkroom
        </Link>
      </div>
      {open ? (
        <div
          id={panelId}
          className="absolute inset-x-0 top-14 z-30 max-h-[calc(100vh-3.5rem)] overflow-y-auto border-b border-zinc-200 bg-white px-4 py-4 shadow-lg"
        >
          <AccountSwitcher accounts={accounts} current={accountId} />
          <div className="mt-4">
            <SidebarNav accountId={accountId} />
          </div>
          <button
            type="button"
            onClick={() => {
              setOpen(false);
              setReporting(true);
            }}
            className="mt-4 flex w-full items-center gap-2 border-t border-zinc-100 px-2 pt-4 text-sm font-medium text-zinc-600 hover:text-zinc-900"
          >
            <LifeBuoy className="size-4" aria-hidden />
            Report a problem
          </button>
        </div>
      ) : null}
      <ReportProblemDialog accountId={accountId} open={reporting} onOpenChange={setReporting} />
    </div>
  );
}
