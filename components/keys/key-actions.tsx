"use client";

import { Ban, RefreshCw, Trash2 } from "lucide-react";
import { useState } from "react";
import { Button, cn } from "@/components/ui";
import { DeleteKeyDialog } from "./delete-key-dialog";
import type { ApiBaseUrls, ApiKeyRecord } from "./key-types";
import { RevokeKeyDialog } from "./revoke-key-dialog";
import { RotateKeyDialog } from "./rotate-key-dialog";

// The owners' buttons on a key: rotate (active keys), revoke (until revoked), delete. Members never
// see them (and the server refuses). Labels name the key, so a table row's buttons stay distinct.

export type KeyActionsProps = {
  accountId: string;
  apiKey: ApiKeyRecord;
  apiBaseUrls: ApiBaseUrls;
  onDeleted?: () => void;
  className?: string;
};

export function KeyActions({ accountId, apiKey, apiBaseUrls, onDeleted, className }: KeyActionsProps) {
  const [open, setOpen] = useState<"rotate" | "revoke" | "delete" | null>(null);
  const dialog = (name: "rotate" | "revoke" | "delete") => ({
    open: open === name,
    onOpenChange: (next: boolean) => setOpen(next ? name : null),
  });
  const label = (verb: string) => `${verb} ${apiKey.apikey_name}`;

  return (
    <div className={cn("flex flex-wrap items-center gap-1.5", className)}>
      {apiKey.state === "active" && !apiKey.playground && (
        <Button variant="secondary" size="sm" aria-label={label("Rotate")} title="Rotate" onClick={() => setOpen("rotate")}>
          <RefreshCw aria-hidden />
          Rotate
        </Button>
      )}
      {apiKey.state !== "revoked" && (
        <Button variant="secondary" size="sm" aria-label={label("Revoke")} title="Revoke" onClick={() => setOpen("revoke")}>
          <Ban aria-hidden />
          Revoke
        </Button>
      )}
      <Button
        variant="ghost"
        size="sm"
        aria-label={label("Delete")}
        title="Delete"
        className="text-red-600 hover:bg-red-50 hover:text-red-700"
        onClick={() => setOpen("delete")}
      >
        <Trash2 aria-hidden />
        Delete
      </Button>
      <RotateKeyDialog accountId={accountId} apiKey={apiKey} apiBaseUrls={apiBaseUrls} {...dialog("rotate")} />
      <RevokeKeyDialog accountId={accountId} apiKey={apiKey} {...dialog("revoke")} />
      <DeleteKeyDialog accountId={accountId} apiKey={apiKey} onDeleted={onDeleted} {...dialog("delete")} />
    </div>
  );
}
