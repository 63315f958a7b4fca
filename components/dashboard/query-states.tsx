"use client";

import type { ReactNode } from "react";
import { isNotFound } from "@/components/trpc/api-error";
import { errorMessage } from "@/components/trpc/react";
import { Button, Card, CardBody } from "@/components/ui";

// What a dashboard query shows until its data is there: the page's own skeleton while it loads,
// the page's "not found" for ERR1006, and any other error with a way to try again.

type Query<TData> = { isPending: boolean; isError: boolean; error: unknown; data: TData | undefined; refetch: () => unknown };

export type QueryStatesProps<TData> = {
  query: Query<TData>;
  /** Names what failed: "The key" reads "The key could not be loaded: …". */
  subject: string;
  /** The skeleton shown while the first answer is on its way. */
  loading: ReactNode;
  /** Shown instead of the error when the id is unknown or another account's (ERR1006). */
  notFound?: ReactNode;
  /** Shown above the loading, error and not-found states, e.g. a back link or a card header. */
  lead?: ReactNode;
  /** "page": the states stand on the page, the error in a card of its own; "card": they sit inside a card. */
  placement?: "page" | "card";
  /** The data, once it is there; without it QueryStates renders nothing then. */
  children?: (data: TData) => ReactNode;
};

export function QueryStates<TData>({ query, subject, loading, notFound, lead, placement = "card", children }: QueryStatesProps<TData>) {
  if (!query.isPending && !query.isError) return children ? children(query.data as TData) : null;

  let state = loading;
  if (query.isError) {
    const message = <p className="text-sm text-red-600">{`${subject} could not be loaded: ${errorMessage(query.error)}`}</p>;
    const retry = (
      <Button variant="secondary" size="sm" onClick={() => query.refetch()}>
        Try again
      </Button>
    );
    if (notFound && isNotFound(query.error)) state = notFound;
    else if (placement === "page")
      state = (
        <Card>
          <CardBody className="flex items-center justify-between gap-4">
            {message}
            {retry}
          </CardBody>
        </Card>
      );
    else
      state = (
        <div className="flex items-center justify-between gap-4 px-5 py-4">
          {message}
          {retry}
        </div>
      );
  }

  return (
    <>
      {lead}
      {state}
    </>
  );
}

/** A detail page until its record is there: the back link, then the states, with the error in a card. */
export function DetailPageStates<TData>({
  backLink,
  ...props
}: Omit<QueryStatesProps<TData>, "placement" | "lead" | "children"> & { backLink: ReactNode }) {
  return (
    <div className="space-y-8">
      {backLink}
      <QueryStates placement="page" {...props} />
    </div>
  );
}
