"use client";

import { LogOut } from "lucide-react";
import { signOut } from "next-auth/react";
import { useState } from "react";
import { Button } from "@/components/ui";

export function UserMenu({ email }: { email: string }) {
  const [pending, setPending] = useState(false);
  return (
    <div className="flex items-center gap-3">
      <span className="hidden max-w-48 truncate text-sm text-zinc-500 sm:block" title={email}>
        {email}
      </span>
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
