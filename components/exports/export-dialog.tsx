"use client";

import { Download } from "lucide-react";
import { useState } from "react";
import { Button, Dialog, Field, FormError, Input } from "@/components/ui";
import { Select } from "@/components/ui/select";

// A download of the account's data as a file (the usage and activity exports): a UTC date range
// and a format, checked by asking for the file first (a refusal, a range before the plan's
// retention say, is shown here, not saved as a file); then the browser saves it as it streams
// from /api/<what>/export.

export type ExportFormat = { value: string; label: string };

const utcToday = () => new Date().toISOString().slice(0, 10);
export const utcDaysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

type Props = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: string;
  /** The dashboard route, e.g. `/api/usage/export`. */
  route: string;
  accountId: string;
  formats: readonly ExportFormat[];
  format: string;
  defaultFrom: string;
  /** An empty From means "all the plan keeps" (the activity export). */
  fromOptional?: boolean;
};

export function ExportDialog(props: Props) {
  const { open, onOpenChange } = props;
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={props.title} description={props.description}>
      {/* Remounted on each open: the form starts from the button's format and the default range. */}
      {open && <ExportForm {...props} />}
    </Dialog>
  );
}

function ExportForm({ route, accountId, formats, format: initialFormat, defaultFrom, fromOptional = false, onOpenChange }: Props) {
  const [from, setFrom] = useState(defaultFrom);
  const [to, setTo] = useState(utcToday());
  const [format, setFormat] = useState(initialFormat);
  const [error, setError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);

  async function download() {
    setError(null);
    const query = new URLSearchParams({ account: accountId, format, ...(from ? { from } : {}), ...(to ? { to } : {}) });
    const href = `${route}?${query}`;
    setChecking(true);
    const asked = new AbortController();
    try {
      const response = await fetch(href, { signal: asked.signal });
      if (!response.ok) {
        const body = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
        setError(body?.error?.message ?? `The export could not be made (HTTP ${response.status}).`);
        return;
      }
      // The answer started: the range is good. The browser saves the file itself, as it streams.
      asked.abort();
      const link = document.createElement("a");
      link.href = href;
      link.download = "";
      document.body.append(link);
      link.click();
      link.remove();
      onOpenChange(false);
    } catch {
      setError("The export could not be reached. Try again.");
    } finally {
      setChecking(false);
    }
  }

  return (
    <form
      className="space-y-4 pb-2"
      onSubmit={(event) => {
        event.preventDefault();
        void download();
      }}
    >
      <div className="grid grid-cols-2 gap-3">
        <Field label="From (UTC)" hint={fromOptional ? "Empty: all the plan keeps" : undefined} required={!fromOptional}>
          <Input type="date" value={from} max={to || utcToday()} onChange={(event) => (setFrom(event.target.value), setError(null))} />
        </Field>
        <Field label="To (UTC)" hint="Inclusive">
          <Input
            type="date"
            value={to}
            min={from || undefined}
            max={utcToday()}
            onChange={(event) => (setTo(event.target.value), setError(null))}
          />
        </Field>
      </div>
      <Field label="Format">
        <Select value={format} onChange={(event) => setFormat(event.target.value)}>
          {formats.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </Select>
      </Field>
      <FormError>{error}</FormError>
      <div className="flex justify-end gap-2 border-t border-zinc-200 pt-4">
        <Button variant="secondary" onClick={() => onOpenChange(false)}>
          Cancel
        </Button>
        <Button type="submit" loading={checking}>
          <Download aria-hidden />
          Download
        </Button>
      </div>
    </form>
  );
}
