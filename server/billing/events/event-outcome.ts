/** What applying one Stripe event did (the stripe-event function's result), and e-mails to send after commit. */
export type EventOutcome = { action: string; emailIds?: string[] };
