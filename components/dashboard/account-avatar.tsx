"use client";

import { useState } from "react";
import { cn } from "@/components/ui";

// The account's picture when it has one that loads, else its initial on the dashboard's gradient.

export function AccountAvatar({ name, pictureUrl, className }: { name: string; pictureUrl: string | null; className?: string }) {
  const [failedUrl, setFailedUrl] = useState<string | null>(null);
  const showPicture = pictureUrl !== null && pictureUrl !== "" && failedUrl !== pictureUrl;
  return (
    <span
      className={cn(
        "flex size-14 shrink-0 items-center justify-center overflow-hidden rounded-lg bg-gradient-to-br from-zinc-700 to-zinc-900 text-xl font-semibold text-white ring-1 ring-zinc-900/10",
        className,
      )}
    >
      {showPicture ? (
        // A URL the owner chose, on any host: next/image would need every host allow-listed.
        // eslint-disable-next-line @next/next/no-img-element
        <img
          src={pictureUrl}
          alt=""
          referrerPolicy="no-referrer"
          className="size-full object-cover"
          onError={() => setFailedUrl(pictureUrl)}
        />
      ) : (
        (name.trim().slice(0, 1) || "?").toUpperCase()
      )}
    </span>
  );
}
