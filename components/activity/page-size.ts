// Shared by the page (server prefetch) and the feed (client query), so both ask for the same first page.
export const ACTIVITY_PAGE_SIZE = 25;
