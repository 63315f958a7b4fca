// The versions of the Terms of Service and the Privacy Policy in force. The /legal pages show
// them; a sign-in records them on the user when they differ from what the user last agreed to.
// Change a version (and its date) whenever the page's text changes in substance.

export const TERMS_VERSION = "2026-11-01";
export const PRIVACY_VERSION = "2026-11-01";

/** The date each version took effect, for the pages. */
export const TERMS_EFFECTIVE_DATE = "1 November 2026";
export const PRIVACY_EFFECTIVE_DATE = "1 November 2026";
