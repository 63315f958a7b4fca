// Rows per page of the billing page's lists; the server page prefetches the same first pages.
export const ORDERS_PAGE_SIZE = 10;
export const LEDGER_PAGE_SIZE = 25;
