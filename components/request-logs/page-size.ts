// Shared by the request log card and the pages that prefetch its first page on the server (the
// query's input, and so its cache key, must match).
export const REQUEST_LOG_PAGE_SIZE = 25;
