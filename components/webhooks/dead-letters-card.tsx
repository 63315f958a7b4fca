"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Archive, RotateCcw } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { useAccount } from "@/components/dashboard/account-context";
import { errorMessage, useTRPC } from "@/components/trpc/react";
import {
  Badge,
  Button,
  Card,
  CardHeader,
  EmptyState,
  Pagination,
  RelativeTime,
  SkeletonRows,
  Table,
  TBody,
  TD,
  TH,
  THead,
  toast,
  TR,
} from "@/components/ui";
import { deadLetterReasons } from "./event-kinds";
import { DEAD_LETTERS_PAGE_SIZE, deadLettersInput } from "./log-inputs";
import { EndpointUrl } from "./endpoint-url";
import { EventName } from "./event-name";

// Events that reached a disabled endpoint. Owners replay them once the endpoint is enabled again;
// a replayed one links to the delivery the replay created.

export type DeadLettersCardProps = {
  /** One endpoint's dead letters (its page), or the account's (the webhooks page). */
  webhookId?: string;
  /** The webhooks page lists only those still waiting for a replay. */
  waitingOnly?: boolean;
  /** Whether an endpoint is enabled; undefined while unknown. */
  isEnabled: (webhookId: string) => boolean | undefined;
  onOpenDelivery: (deliveryId: string) => void;
  pageSize?: number;
};

export function DeadLettersCard({
  webhookId,
  waitingOnly = false,
  isEnabled,
  onOpenDelivery,
  pageSize = DEAD_LETTERS_PAGE_SIZE.account,
}: DeadLettersCardProps) {
  const { accountId, isOwner } = useAccount();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [offset, setOffset] = useState(0);
  const [replaying, setReplaying] = useState<string | null>(null);

  const anyDisabled = webhookId ? isEnabled(webhookId) === false : true;
  const letters = useQuery({
    ...trpc.webhooks.deadLetters.queryOptions(deadLettersInput(accountId, { webhookId, waitingOnly, pageSize, offset })),
    placeholderData: keepPreviousData,
    // New dead letters only appear while an endpoint is disabled.
    refetchInterval: anyDisabled ? 5000 : false,
  });

  const replay = useMutation(
    trpc.webhooks.replayDeadLetter.mutationOptions({
      onMutate: ({ deadLetterId }) => setReplaying(deadLetterId),
      onSettled: () => setReplaying(null),
      onSuccess: async (result) => {
        toast.success(result.already_replayed ? "Already replayed" : "Dead letter replayed", {
          description: "A new delivery was created.",
          action: { label: "View", onClick: () => onOpenDelivery(result.delivery_id) },
        });
        await queryClient.invalidateQueries({ queryKey: trpc.webhooks.pathKey() });
      },
      onError: (error) => toast.error("Could not replay", { description: errorMessage(error) }),
    }),
  );

  const total = letters.data?.total ?? 0;

  return (
    <Card role="region" aria-label="Dead letters">
      <CardHeader
        title="Dead letters"
        description={
          waitingOnly
            ? "Events that arrived while an endpoint was disabled, waiting to be replayed."
            : "Events that arrived while this endpoint was disabled. Replay them once it is enabled again."
        }
        actions={waitingOnly && total > 0 ? <Badge tone="amber">{total.toLocaleString("en")} waiting</Badge> : null}
      />
      {letters.isPending ? (
        <Table>
          <TBody>
            <SkeletonRows rows={2} columns={4} />
          </TBody>
        </Table>
      ) : letters.isError ? (
        <p className="px-5 py-4 text-sm text-red-600">Dead letters could not be loaded: {errorMessage(letters.error)}</p>
      ) : letters.data.data.length === 0 ? (
        <EmptyState
          icon={Archive}
          className="py-8"
          title="No dead letters"
          description={
            waitingOnly
              ? "Nothing is waiting. Events for a disabled endpoint are kept here so you can replay them later."
              : "Events that reach this endpoint while it is disabled are kept here, so nothing is lost."
          }
        />
      ) : (
        <>
          <Table className={webhookId ? "min-w-[480px] table-fixed" : "min-w-[720px] table-fixed"}>
            <THead>
              <TR>
                <TH>Event</TH>
                {!webhookId && <TH className="w-[32%]">Endpoint</TH>}
                <TH className="w-[100px]">Received</TH>
                <TH className="w-[190px] text-right">
                  <span className="sr-only">Replay</span>
                </TH>
              </TR>
            </THead>
            <TBody>
              {letters.data.data.map((letter) => {
                const enabled = isEnabled(letter.webhook_id);
                return (
                  <TR key={letter.dead_letter_id}>
                    <TD className="max-w-0">
                      <EventName event={letter.event} className="block truncate" />
                      <p className="mt-0.5 truncate text-xs text-zinc-500">{deadLetterReasons[letter.reason] ?? letter.reason}</p>
                    </TD>
                    {!webhookId && (
                      <TD className="max-w-0">
                        <Link href={`/dashboard/${accountId}/webhooks/${letter.webhook_id}`} className="hover:underline">
                          <EndpointUrl url={letter.webhook_url} className="text-xs" />
                        </Link>
                      </TD>
                    )}
                    <TD className="text-xs text-zinc-500">
                      <RelativeTime date={letter.created_at} format="short" />
                    </TD>
                    <TD className="text-right">
                      {letter.replayed_at ? (
                        <span className="inline-flex items-center gap-2">
                          <Badge tone="green">Replayed</Badge>
                          {letter.replay_delivery_id && (
                            <button
                              type="button"
                              className="text-xs font-medium whitespace-nowrap text-zinc-700 underline-offset-2 hover:underline"
                              onClick={() => onOpenDelivery(letter.replay_delivery_id as string)}
                            >
                              View delivery
                            </button>
                          )}
                        </span>
                      ) : isOwner ? (
                        <Button
                          size="sm"
                          variant="secondary"
                          loading={replaying === letter.dead_letter_id}
                          disabled={enabled === false || (replaying !== null && replaying !== letter.dead_letter_id)}
                          title={enabled === false ? "Enable the endpoint to replay" : "Send this event to the endpoint now"}
                          onClick={() => replay.mutate({ accountId, deadLetterId: letter.dead_letter_id })}
                        >
                          {replaying !== letter.dead_letter_id && <RotateCcw aria-hidden />}
                          Replay
                        </Button>
                      ) : (
                        <Badge tone="amber">Waiting</Badge>
                      )}
                    </TD>
                  </TR>
                );
              })}
            </TBody>
          </Table>
          {isOwner && letters.data.data.some((letter) => !letter.replayed_at && isEnabled(letter.webhook_id) === false) && (
            <p className="border-t border-zinc-100 px-5 py-2.5 text-xs text-zinc-500">Enable the endpoint to replay its dead letters.</p>
          )}
          {total > pageSize && (
            <Pagination
              label="Dead letter pages"
              offset={offset}
              limit={pageSize}
              total={total}
              shown={letters.data.data.length}
              onOffsetChange={setOffset}
            />
          )}
        </>
      )}
    </Card>
  );
}
