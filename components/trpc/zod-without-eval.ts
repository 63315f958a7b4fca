import { z } from "zod";

// Zod compiles object parsers with `new Function` where it may. A page's CSP allows no eval, and
// Chromium reports even zod's guarded probe for it as a violation. In the browser only: the server
// keeps the compiled parsers (/v1 validation is on the hot path).
if (typeof window !== "undefined") z.config({ jitless: true });
