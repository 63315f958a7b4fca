import type { Metadata } from "next";
import localFont from "next/font/local";
import { connection } from "next/server";
import "./globals.css";

const inter = localFont({
  src: "../node_modules/@fontsource-variable/inter/files/inter-latin-wght-normal.woff2",
  variable: "--font-inter",
  display: "swap",
});

export const metadata: Metadata = {
  title: { default: "Darkroom", template: "%s · Darkroom" },
  description: "Image and video generation through many providers, behind one API.",
};

// Every page renders per request: its scripts carry that request's CSP nonce (proxy.ts), which a
// page prerendered at build time could not.
export default async function RootLayout({ children }: { children: React.ReactNode }) {
  await connection();
  return (
    <html lang="en" className={inter.variable}>
      <body className="min-h-screen bg-zinc-50 font-sans text-zinc-900 antialiased">{children}</body>
    </html>
  );
}
