"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/react";
import { cn, Field, TimeRangeField, type TimeRange } from "@/components/ui";
import { Select } from "@/components/ui/select";
import { errorTable } from "@/server/base/error-table";

// The request log's filters: key (account-wide view only), status class, endpoint, error code and
// time range. Every change starts again from the newest page.

export type StatusClass = "2xx" | "4xx" | "5xx";
export type RequestLogFilterValues = { keyId?: string; statusClass?: StatusClass; endpoint?: string; errorCode?: string; range: TimeRange };

const statusClasses: Array<{ value: StatusClass | undefined; label: string }> = [
  { value: undefined, label: "All" },
  { value: "2xx", label: "2xx" },
  { value: "4xx", label: "4xx" },
  { value: "5xx", label: "5xx" },
];

const errorCodes = Object.keys(errorTable);

export type RequestLogFiltersProps = {
  accountId: string;
  values: RequestLogFilterValues;
  onChange: (values: RequestLogFilterValues) => void;
  showKey: boolean;
};

export function RequestLogFilters({ accountId, values, onChange, showKey }: RequestLogFiltersProps) {
  const trpc = useTRPC();
  const keys = useQuery({ ...trpc.keys.list.queryOptions({ accountId }), enabled: showKey });
  const endpoints = useQuery(trpc.requestLogs.endpoints.queryOptions({ accountId }));
  const set = (patch: Partial<RequestLogFilterValues>) => onChange({ ...values, ...patch });

  return (
    <div className="grid grid-cols-2 gap-3 border-b border-zinc-200 px-5 py-4 sm:grid-cols-3 lg:flex lg:flex-wrap lg:items-end">
      <div className="col-span-2 flex flex-col gap-1.5 sm:col-span-3 lg:col-span-1">
        <span id="status-class-label" className="text-sm font-medium text-zinc-900">
          Status
        </span>
        <div
          role="group"
          aria-labelledby="status-class-label"
          className="inline-flex h-9 w-fit items-center rounded-md border border-zinc-200 bg-zinc-50 p-0.5"
        >
          {statusClasses.map((option) => (
            <button
              key={option.label}
              type="button"
              aria-pressed={values.statusClass === option.value}
              onClick={() => set({ statusClass: option.value })}
              className={cn(
                "h-full rounded px-3 text-xs font-medium transition-colors outline-none focus-visible:ring-2 focus-visible:ring-zinc-900/10",
                values.statusClass === option.value
                  ? "bg-white text-zinc-900 shadow-xs ring-1 ring-zinc-200"
                  : "text-zinc-500 hover:text-zinc-900",
              )}
            >
              {option.label}
            </button>
          ))}
        </div>
      </div>
      {showKey && (
        <Field label="Key" className="lg:w-44">
          <Select value={values.keyId ?? ""} onChange={(event) => set({ keyId: event.target.value || undefined })}>
            <option value="">All keys</option>
            {(keys.data ?? []).map((key) => (
              <option key={key.apikey_id} value={key.apikey_id}>
                {key.apikey_name} ({key.apikey_prefix})
              </option>
            ))}
          </Select>
        </Field>
      )}
      <Field label="Endpoint" className="lg:w-56">
        <Select value={values.endpoint ?? ""} onChange={(event) => set({ endpoint: event.target.value || undefined })}>
          <option value="">All endpoints</option>
          {(endpoints.data ?? []).map((endpoint) => (
            <option key={endpoint} value={endpoint}>
              {endpoint}
            </option>
          ))}
        </Select>
      </Field>
      <Field label="Error code" className="lg:w-32">
        <Select value={values.errorCode ?? ""} onChange={(event) => set({ errorCode: event.target.value || undefined })}>
          <option value="">Any</option>
          {errorCodes.map((code) => (
            <option key={code} value={code}>
              {code}
            </option>
          ))}
        </Select>
      </Field>
      <TimeRangeField className="lg:w-40" value={values.range} onChange={(range) => set({ range })} />
    </div>
  );
}
