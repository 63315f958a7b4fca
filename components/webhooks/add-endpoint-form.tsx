"use client";

import { useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/components/trpc/react";
import { Checkbox, Field, Input, Skeleton } from "@/components/ui";
import { asSentence } from "@/components/trpc/api-error";
import { eventDescriptions } from "./event-kinds";
import { EventName } from "./event-name";

// The fields of "Add endpoint". The dialog owns the submit button (its footer), so the form is
// addressed by id; errors come back from the server per field (details.fields).

export type AddEndpointValues = { url: string; description: string; events: string[] };

export type AddEndpointFormProps = {
  formId: string;
  accountId: string;
  fieldErrors: Record<string, string>;
  onSubmit: (values: AddEndpointValues) => void;
};

export function AddEndpointForm({ formId, accountId, fieldErrors, onSubmit }: AddEndpointFormProps) {
  const trpc = useTRPC();
  const kinds = useQuery({ ...trpc.webhooks.eventKinds.queryOptions({ accountId }), staleTime: Infinity });
  const [url, setUrl] = useState("");
  const [description, setDescription] = useState("");
  const [chosen, setChosen] = useState<string[] | null>(null);
  const [noEvents, setNoEvents] = useState(false);

  const defaults = (kinds.data ?? []).filter((kind) => kind.default).map((kind) => kind.event);
  const selected = chosen ?? defaults;

  function toggle(event: string, checked: boolean) {
    const next = checked ? [...selected, event] : selected.filter((candidate) => candidate !== event);
    setChosen(next);
    if (next.length > 0) setNoEvents(false);
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!kinds.data) return; // the list of events is still loading: nothing to send yet
    if (selected.length === 0) {
      setNoEvents(true);
      return;
    }
    // Sent in the server's order, whatever order they were ticked in.
    const events = (kinds.data ?? []).map((kind) => kind.event).filter((kind) => selected.includes(kind));
    onSubmit({ url: url.trim(), description: description.trim(), events });
  }

  // Only while nothing is chosen: a submit made before the list loaded must not leave the error over its defaults.
  const eventsError = noEvents && selected.length === 0 ? "Choose at least one event." : fieldErrors.events;

  return (
    <form id={formId} onSubmit={submit} className="space-y-5 pb-2" noValidate>
      <Field
        label="Endpoint URL"
        required
        hint="A public HTTPS URL on port 443, e.g. https://example.com/webhooks/darkroom."
        error={fieldErrors.url ? asSentence(fieldErrors.url) : undefined}
      >
        <Input
          type="url"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          placeholder="https://example.com/webhooks/darkroom"
          className="font-mono text-[13px]"
          value={url}
          onChange={(event) => setUrl(event.target.value)}
          autoFocus
        />
      </Field>

      <Field
        label="Description"
        hint="Optional. What this endpoint is for, for your team."
        error={fieldErrors.description ? `Description ${fieldErrors.description}.` : undefined}
      >
        <Input
          placeholder="Production order sync"
          maxLength={200}
          value={description}
          onChange={(event) => setDescription(event.target.value)}
        />
      </Field>

      <fieldset className="space-y-2" aria-describedby={eventsError ? `${formId}-events-error` : undefined}>
        <legend className="mb-2 flex w-full items-baseline justify-between gap-3 text-sm font-medium text-zinc-900">
          Events to send
          {eventsError && (
            <span id={`${formId}-events-error`} role="alert" className="text-xs font-medium text-red-600">
              {eventsError}
            </span>
          )}
        </legend>
        {kinds.isPending ? (
          <div className="space-y-3">
            {Array.from({ length: 3 }, (_, index) => (
              <Skeleton key={index} className="h-12 w-full" />
            ))}
          </div>
        ) : kinds.isError ? (
          <p className="text-sm text-red-600">The list of events could not be loaded. Close this dialog and try again.</p>
        ) : (
          <div className="grid gap-px overflow-hidden rounded-md border border-zinc-200 bg-zinc-200 sm:grid-cols-2">
            {kinds.data.map((kind) => (
              <Checkbox
                key={kind.event}
                className="bg-white px-3 py-2.5"
                checked={selected.includes(kind.event)}
                onChange={(event) => toggle(kind.event, event.target.checked)}
                label={<EventName event={kind.event} />}
                description={
                  <span className="text-xs">
                    {eventDescriptions[kind.event] ?? ""}
                    {kind.opt_in && " Opt-in: added after the API was published, so it is never sent unless ticked."}
                  </span>
                }
              />
            ))}
          </div>
        )}
      </fieldset>
    </form>
  );
}
