import { getFormatter, getTranslations } from "next-intl/server";

import { periodStart } from "@/lib/statements/period";

/**
 * A merchant's monthly statements, each as a PDF and a CSV download, named by its month in the
 * reader's words: the ISV's dashboard and the merchant's home, each with its own download address.
 */
export async function StatementLinks({
  statements,
  href,
}: {
  statements: { id: string; period: string }[];
  href: (statementId: string) => string;
}) {
  const t = await getTranslations("dashboard");
  const format = await getFormatter();
  if (statements.length === 0) return <p>{t("noStatements")}</p>;
  return (
    <ul className="mt-2 space-y-1" data-testid="statements">
      {statements.map((st) => {
        const name = format.dateTime(periodStart(st.period), {
          year: "numeric",
          month: "long",
          timeZone: "UTC",
        });
        return (
          <li key={st.id} className="flex flex-wrap gap-4">
            <a className="underline" href={href(st.id)} download>
              {t("downloadPdf", { period: name })}
            </a>
            <a className="underline" href={`${href(st.id)}?format=csv`} download>
              {t("downloadCsv", { period: name })}
            </a>
          </li>
        );
      })}
    </ul>
  );
}
