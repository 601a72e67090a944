import createNextIntlPlugin from "next-intl/plugin";

const withNextIntl = createNextIntlPlugin("./lib/i18n/request.ts");

/** @type {import('next').NextConfig} */
const nextConfig = {
  // The embedded database and the pg driver run in Node, never in a bundle.
  serverExternalPackages: ["@electric-sql/pglite", "pg", "pino", "drizzle-orm", "ioredis", "rate-limiter-flexible"],
  poweredByHeader: false,
  reactStrictMode: true,
};

export default withNextIntl(nextConfig);
