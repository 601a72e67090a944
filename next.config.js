import createNextIntlPlugin from "next-intl/plugin";

// Messages are compiled at build time (next-intl's `precompile`): the browser gets them ready to
// format and never loads an ICU parser (intl-messageformat, about 10 KB of the wizard's script).
// Plain messages stay plain strings, so server code that reads the JSON files directly (the
// agreement's option labels) reads the same values.
const withNextIntl = createNextIntlPlugin({
  requestConfig: "./lib/i18n/request.ts",
  experimental: { messages: { path: "./lib/i18n/messages", format: "json", locales: "infer", precompile: true } },
});

/** @type {import('next').NextConfig} */
const nextConfig = {
  // The embedded database and the pg driver run in Node, never in a bundle.
  serverExternalPackages: ["@electric-sql/pglite", "pg", "pino", "drizzle-orm", "ioredis", "rate-limiter-flexible"],
  poweredByHeader: false,
  reactStrictMode: true,
  // Every page's <title> in its <head> from the first byte (no streamed metadata): a screen reader
  // announces the page's name at once, and a live page's refresh never leaves it without a title.
  htmlLimitedBots: /.*/,
  // CI type-checks the whole project once (`npm run typecheck`, before the tests) and says so with
  // TYPECHECKED=1: the build need not check the same files again (20 s of a CI run). `npm start`
  // says so too: what a newcomer starts is what CI checked, and the check was 36 s of a 64 s first
  // start (`npm run typecheck` checks a changed tree). Other builds check their types.
  typescript: { ignoreBuildErrors: process.env.TYPECHECKED === "1" },
};

export default withNextIntl(nextConfig);
