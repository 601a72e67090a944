import { getTranslations } from "next-intl/server";

export async function generateMetadata() {
  const t = await getTranslations("home");
  return { title: t("title") };
}

export default async function HomePage() {
  const t = await getTranslations("home");
  return (
    <main className="mx-auto max-w-2xl px-6 py-16">
      <h1 className="text-3xl font-semibold">{t("title")}</h1>
      <p className="mt-4 text-muted">{t("intro")}</p>
      <ul className="mt-8 list-disc space-y-2 pl-6">
        <li>
          <a className="text-primary underline" href="/docs">
            {t("docs")}
          </a>
        </li>
        <li>
          <a className="text-primary underline" href="/v1/openapi.json">
            {t("openapi")}
          </a>
        </li>
      </ul>
    </main>
  );
}
