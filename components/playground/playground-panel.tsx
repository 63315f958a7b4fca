"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Play } from "lucide-react";
import { useId, useMemo, useState } from "react";
import { useAccount } from "@/components/dashboard/account-context";
import type { ModelDescription } from "@/components/models/model-types";
import { apiErrorFields } from "@/components/trpc/api-error";
import { errorMessage, useTRPC } from "@/components/trpc/react";
import { Button, Card, CardBody, CardHeader, EmptyState, FormError } from "@/components/ui";
import { RequestCodeCard } from "./request-code-card";
import { RunEstimateSummary } from "./run-estimate";
import { RunFields } from "./run-fields";
import { initialValues, requestBody, valuesFromRequest, type FormValue, type FormValues } from "./run-form";
import { RunHistory } from "./run-history";
import { RunResult } from "./run-result";
import { useDebounced } from "./use-debounced";
import { useSearchParam } from "./use-search-param";

// The model page's playground: a form made from the model's create fields, the estimate of
// exactly that request, Run (a real generation through the /v1 create path, billed to the account,
// attributed to the account's Dashboard playground key and to the signed-in user), the run live,
// the request as code, and the user's recent runs, reopenable with their settings (?run=<id>).

export function PlaygroundPanel({ model, apiBaseUrl }: { model: ModelDescription; apiBaseUrl: string }) {
  const { accountId } = useAccount();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [runId, setRunId] = useSearchParam("run");
  const identifier = model.entry.model_identifier;
  const fields = model.fields;
  const providers = useMemo(() => model.providers.map((provider) => provider.provider), [model.providers]);
  const [values, setValues] = useState<FormValues>(() => initialValues(fields));
  const body = useMemo(() => requestBody(fields, values), [fields, values]);
  const settled = useDebounced(body);
  const refusalId = useId();

  const access = useQuery(trpc.playground.access.queryOptions({ accountId }));
  const estimate = useQuery({
    ...trpc.playground.estimate.queryOptions({ accountId, identifier, body: settled }),
    placeholderData: keepPreviousData,
  });
  const reopened = useQuery({ ...trpc.playground.get.queryOptions({ accountId, generationId: runId ?? "" }), enabled: runId !== null });

  // A reopened run puts its request back in the form, once per run (set while rendering, as React
  // advises for state that follows other state).
  const [filledFrom, setFilledFrom] = useState<string | null>(null);
  if (reopened.data && filledFrom !== reopened.data.record.generation_id) {
    setFilledFrom(reopened.data.record.generation_id);
    if (reopened.data.record.model_identifier === identifier) setValues(valuesFromRequest(fields, reopened.data.parameters));
  }

  const run = useMutation(
    trpc.playground.run.mutationOptions({
      onSuccess: (created) => {
        // Marked as filled: the form already holds this run's request.
        setFilledFrom(created.generation_id);
        setRunId(created.generation_id);
        void queryClient.invalidateQueries({ queryKey: trpc.playground.history.pathKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.playground.estimate.pathKey() });
      },
    }),
  );

  // The estimate's field errors for the fields set (an untouched required field is the refusal's to name).
  // An estimate of an earlier form (still shown while the new one is on its way) says nothing of this one.
  const stale = settled !== body || estimate.isPlaceholderData;
  const setFieldErrors = stale
    ? []
    : (estimate.data?.field_errors ?? []).filter((error) => error.field in body).map((error) => [error.field, error.message]);
  const fieldErrors = { ...Object.fromEntries(setFieldErrors), ...apiErrorFields(run.error) };
  const mayRun = access.data ? access.data.refusal === null : false;
  const refusal = stale ? null : (estimate.data?.refusal ?? null);
  const disabled = !estimate.data || stale || refusal !== null || run.isPending;
  const set = (field: string, value: FormValue) => {
    setValues((current) => ({ ...current, [field]: value }));
    run.reset();
  };

  return (
    <section aria-labelledby="playground-title" className="space-y-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="playground-title" className="text-lg font-semibold tracking-tight text-zinc-900">
          Playground
        </h2>
        <p className="text-sm text-zinc-500">Runs are real generations, billed to this account and listed in Generations.</p>
      </div>
      <div className="grid gap-4 lg:grid-cols-[minmax(0,5fr)_minmax(0,6fr)]">
        <Card>
          <form
            onSubmit={(event) => {
              event.preventDefault();
              if (!disabled) run.mutate({ accountId, identifier, body, idempotencyKey: crypto.randomUUID() });
            }}
          >
            <CardBody className="space-y-5">
              <RunFields fields={fields} values={values} providers={providers} errors={fieldErrors} onChange={set} mayUpload={mayRun} />
              <RunEstimateSummary estimate={estimate.data} refusalId={refusalId} stale={stale} />
              {estimate.isError && <FormError>{`The estimate could not be made: ${errorMessage(estimate.error)}`}</FormError>}
              <FormError>{run.isError ? errorMessage(run.error) : null}</FormError>
              <Button
                type="submit"
                className="w-full sm:w-auto"
                disabled={disabled}
                loading={run.isPending}
                aria-describedby={refusal ? refusalId : undefined}
              >
                <Play aria-hidden />
                Run
              </Button>
            </CardBody>
          </form>
        </Card>
        <div className="space-y-4">
          <Card role="region" aria-label="Result">
            <CardHeader
              title="Result"
              description={runId ? undefined : "The run shows here as it goes: queued, each provider attempt, the outputs."}
            />
            <CardBody>
              {runId ? (
                <RunResult generationId={runId} canRun={mayRun} />
              ) : (
                <EmptyState icon={Play} className="py-8" title="Nothing run yet" description="Fill in the form and press Run." />
              )}
            </CardBody>
          </Card>
          <RunHistory currentRunId={runId} />
        </div>
      </div>
      <RequestCodeCard request={{ baseUrl: apiBaseUrl, kind: model.entry.model_type, modelIdentifier: identifier, body }} />
    </section>
  );
}
