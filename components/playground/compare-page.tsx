"use client";

import { useMutation, useQueries, useQuery, useQueryClient } from "@tanstack/react-query";
import { Columns3, Plus, X } from "lucide-react";
import { useId, useMemo, useState } from "react";
import { useAccount } from "@/components/dashboard/account-context";
import { formatCredits } from "@/components/dashboard/format-credits";
import { errorMessage, useTRPC } from "@/components/trpc/react";
import { Button, Card, CardBody, cn, Field, FormError, PageHeader, Skeleton, Textarea } from "@/components/ui";
import { columnGrid, ComparisonResult } from "./comparison-result";
import { ComparisonHistory } from "./comparison-history";
import { columnBody, defaultColumns, MAX_COMPARE_COLUMNS, type CompareColumnState } from "./compare-form";
import { Select } from "@/components/ui/select";
import { useDebounced } from "./use-debounced";
import { useSearchParam } from "./use-search-param";

// Compare: one prompt, up to four columns, each a model or one model pinned to a provider, each run
// as its own generation. The total estimate shows before running; the result (?comparison=<id>)
// shows every column live and which was fastest and cheapest.

export function ComparePage() {
  const { accountId } = useAccount();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [comparisonId, setComparisonId] = useSearchParam("comparison");
  const catalog = useQuery(trpc.models.list.queryOptions({ accountId }));
  const access = useQuery(trpc.playground.access.queryOptions({ accountId }));
  const models = useMemo(
    () =>
      (catalog.data?.models ?? [])
        .filter((model) => model.entry.model_status === "active")
        .map((model) => ({
          identifier: model.entry.model_identifier,
          name: model.entry.model_name,
          providers: model.providers.map((provider) => provider.provider),
        })),
    [catalog.data],
  );
  const [prompt, setPrompt] = useState("a lighthouse at dusk, watercolor");
  // null until the reader changes them: the default columns then follow the catalog.
  const [columns, setColumns] = useState<CompareColumnState[] | null>(null);
  const shown = useMemo(() => columns ?? defaultColumns(models), [columns, models]);

  const details = useQueries({
    queries: shown.map((column) => trpc.models.get.queryOptions({ accountId, identifier: column.identifier })),
  });
  const bodies = shown.map((column, index) => {
    const fields = details[index]?.data?.fields;
    return fields ? columnBody(fields, prompt, column.provider) : null;
  });
  const ready = bodies.every((body) => body !== null);
  const settled = useDebounced(JSON.stringify(bodies));
  const estimates = useQueries({
    queries: shown.map((column, index) => ({
      ...trpc.playground.estimate.queryOptions({
        accountId,
        identifier: column.identifier,
        body: (JSON.parse(settled) as Array<Record<string, unknown> | null>)[index] ?? {},
      }),
      enabled: ready,
    })),
  });
  const total = estimates.reduce((sum, estimate) => sum + (estimate.data?.cost_total ?? 0), 0);
  const refusal =
    access.data?.refusal ??
    estimates.map((estimate, index) => (estimate.data?.refusal ? `Column ${index + 1}: ${estimate.data.refusal}` : null)).find(Boolean) ??
    null;
  const balance = estimates[0]?.data?.credit_balance ?? null;
  const overBalance =
    balance !== null && total > balance
      ? `Together the columns cost ${formatCredits(total)} credits; the balance is ${formatCredits(balance)}.`
      : null;
  const reason = refusal ?? overBalance;
  const estimating = !ready || estimates.some((estimate) => !estimate.data) || settled !== JSON.stringify(bodies);
  const reasonId = useId();

  const compare = useMutation(
    trpc.playground.compare.mutationOptions({
      onSuccess: (started) => {
        setComparisonId(started.comparison_id);
        void queryClient.invalidateQueries({ queryKey: trpc.playground.pathKey() });
      },
    }),
  );
  const update = (key: string, change: Partial<CompareColumnState>) =>
    setColumns(shown.map((column) => (column.key === key ? { ...column, ...change } : column)));

  return (
    <div className="space-y-8">
      <PageHeader
        title="Compare"
        description="Run one prompt on up to four models, or on one model through different providers, side by side. Each column is its own generation, billed like any other."
      />
      <Card>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (reason || estimating) return;
            compare.mutate({
              accountId,
              idempotencyKey: crypto.randomUUID(),
              columns: shown.map((column, index) => ({ identifier: column.identifier, body: bodies[index] ?? {} })),
            });
          }}
        >
          <CardBody className="space-y-5">
            <Field label="Prompt" required>
              <Textarea name="prompt" rows={2} value={prompt} onChange={(event) => setPrompt(event.target.value)} />
            </Field>
            {catalog.isPending ? (
              <Skeleton className="h-24" />
            ) : catalog.isError ? (
              <FormError>{`The models could not be loaded: ${errorMessage(catalog.error)}`}</FormError>
            ) : (
              <ol className={cn("grid gap-3 sm:grid-cols-2", columnGrid[shown.length])} aria-label="Columns">
                {shown.map((column, index) => {
                  const model = models.find((item) => item.identifier === column.identifier);
                  const estimate = estimates[index]?.data;
                  return (
                    <li key={column.key} className="space-y-3 rounded-md border border-zinc-200 p-3" data-column={index + 1}>
                      <div className="flex items-center justify-between">
                        <span className="text-sm font-semibold text-zinc-900">Column {index + 1}</span>
                        <Button
                          variant="ghost"
                          size="sm"
                          aria-label={`Remove column ${index + 1}`}
                          disabled={shown.length === 1}
                          onClick={() => setColumns(shown.filter((item) => item.key !== column.key))}
                        >
                          <X aria-hidden />
                        </Button>
                      </div>
                      <Field label="Model">
                        <Select
                          value={column.identifier}
                          onChange={(event) => update(column.key, { identifier: event.target.value, provider: "" })}
                        >
                          {models.map((item) => (
                            <option key={item.identifier} value={item.identifier}>
                              {item.name}
                            </option>
                          ))}
                        </Select>
                      </Field>
                      <Field label="Provider">
                        <Select value={column.provider} onChange={(event) => update(column.key, { provider: event.target.value })}>
                          <option value="">Fastest</option>
                          {(model?.providers ?? []).map((provider) => (
                            <option key={provider} value={provider}>
                              {`${provider} only`}
                            </option>
                          ))}
                        </Select>
                      </Field>
                      <p className="text-xs text-zinc-500 tabular-nums">
                        {estimate ? `${formatCredits(estimate.cost_total)} credits` : "Estimating…"}
                      </p>
                    </li>
                  );
                })}
              </ol>
            )}
            <div className="flex flex-wrap items-center gap-3">
              <Button
                variant="secondary"
                size="sm"
                disabled={shown.length >= MAX_COMPARE_COLUMNS || models.length === 0}
                onClick={() =>
                  setColumns([
                    ...shown,
                    { key: `c${Date.now()}`, identifier: shown.at(-1)?.identifier ?? models[0]?.identifier ?? "", provider: "" },
                  ])
                }
              >
                <Plus aria-hidden />
                Add column
              </Button>
              <p className="text-sm text-zinc-600" role="status" aria-label="Total estimate">
                Total estimate{" "}
                <span className="font-semibold text-zinc-900 tabular-nums">{estimating ? "…" : `${formatCredits(total)} credits`}</span>
              </p>
            </div>
            {reason && (
              <p
                id={reasonId}
                role="alert"
                className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm break-words text-amber-900"
              >
                {reason}
              </p>
            )}
            <FormError>{compare.isError ? errorMessage(compare.error) : null}</FormError>
            <Button
              type="submit"
              disabled={reason !== null || estimating || shown.length === 0}
              loading={compare.isPending}
              aria-describedby={reason ? reasonId : undefined}
            >
              <Columns3 aria-hidden />
              Run comparison
            </Button>
          </CardBody>
        </form>
      </Card>
      {comparisonId && <ComparisonResult comparisonId={comparisonId} canRun={access.data?.refusal === null} />}
      <ComparisonHistory currentId={comparisonId} />
    </div>
  );
}
