"use client";

import { LifeBuoy, LogOut } from "lucide-react";
import { signOut } from "next-auth/react";
import { useState } from "react";
import { Button } from "@/components/ui";
import { ReportProblemDialog } from "./report-problem-dialog";

// The signed-in user's corner of the header: their address, "Report a problem" (on phones it is in
// the Menu panel instead) and Sign out.

export function UserMenu({ email, accountId }: { email: string; accountId: string }) {
  const [pending, setPending] = useState(false);
  const [reporting, setReporting] = useState(false);
  return (
    <div className="flex items-center gap-3">
      <span className="hidden max-w-48 truncate text-sm text-zinc-500 sm:block" title={email}>
        {email}
      </span>
      <Button variant="ghost" size="sm" className="hidden md:inline-flex" onClick={() => setReporting(true)}>
        <LifeBuoy aria-hidden />
        Report a problem
      </Button>
      <ReportProblemDialog accountId={accountId} open={reporting} onOpenChange={setReporting} />
      <Button
        variant="ghost"
        size="sm"
        loading={pending}
        onClick={() => {
          setPending(true);
          void signOut({ redirectTo: "/login" });
        }}
      >
        <LogOut aria-hidden />
        Sign out
      </Button>
    </div>
  );
}
