export type LegacyRewrite = { operationId: string; path: string; servedAs: string };

export declare const legacyRewrites: readonly LegacyRewrite[];

export declare function legacyPathsOf(path: string): Array<{ operationId: string; path: string }>;
