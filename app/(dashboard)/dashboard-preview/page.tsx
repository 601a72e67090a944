import { NextIntlClientProvider } from "next-intl";
import { getMessages } from "next-intl/server";

import { BrandShell } from "@/components/onboarding/brand-shell";
import { Wizard } from "@/components/onboarding/wizard";
import { sampleSession } from "@/lib/dashboard/sample-session";
import { requireIsvUser } from "@/lib/dashboard/session";
import { brandOf } from "@/lib/domain/accounts/isv-facts";
import { toLocale } from "@/lib/i18n/locales";
import { isStepId } from "@/lib/onboarding/steps";
import { type MerchantDefaults, merchantDefaultsSchema } from "@/lib/schemas/account";

export const metadata = { title: "Preview" };

/**
 * The live branding preview: the real wizard step with the branding being edited (passed in the
 * query, validated like a saved one), sample data, in either language. Nothing is saved.
 */
export default async function PreviewPage({
  searchParams,
}: {
  searchParams: Promise<{ step?: string; locale?: string; b?: string }>;
}) {
  const { account } = await requireIsvUser("account:read");
  const params = await searchParams;
  const step = params.step && isStepId(params.step) ? params.step : "business";
  const locale = toLocale(params.locale);
  let edited: Partial<MerchantDefaults> = {};
  try {
    const parsed = merchantDefaultsSchema
      .partial()
      .safeParse(JSON.parse(Buffer.from(params.b ?? "", "base64url").toString("utf8") || "{}"));
    if (parsed.success) edited = parsed.data;
  } catch {
    /* not JSON: show the saved branding */
  }
  const branding = {
    ...brandOf(account),
    ...Object.fromEntries(Object.entries(edited).filter(([, v]) => v !== undefined && v !== null)),
  } as MerchantDefaults;
  const { session, agreement } = sampleSession(account, branding, locale);
  const messages = await getMessages({ locale });
  return (
    <NextIntlClientProvider locale={locale} messages={messages}>
      <div lang={locale}>
        <BrandShell branding={branding} locale={locale} preview>
          <Wizard step={step} initialSession={session} agreement={step === "agreement" ? agreement : null} preview />
        </BrandShell>
      </div>
    </NextIntlClientProvider>
  );
}
