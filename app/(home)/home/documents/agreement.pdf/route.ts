import { getLocale } from "next-intl/server";

import { getAccount } from "@/lib/domain/accounts/get-account";
import { merchantAgreement } from "@/lib/domain/onboarding/get-agreement";
import { homeRoute } from "@/lib/home/route";
import { isLocale } from "@/lib/i18n/locales";
import { agreementPdf } from "@/lib/pdf/agreement-pdf";
import { documentLogo } from "@/lib/pdf/logo";

// GET /home/documents/agreement.pdf: the signed-in merchant's agreement as it signed it (the kept
// text, in the language it was signed in, with its signature line); without a session: 404. The
// home's session (on its ISV's host), never an embedded component's.
export const GET = homeRoute({}, async ({ db, home: { merchant } }) => {
  const isv = await getAccount(db, merchant.isvAccountId);
  const reader = await getLocale();
  const agreement = merchantAgreement(merchant, isv, isLocale(reader) ? reader : "en");
  const bytes = await agreementPdf({
    document: agreement.document,
    branding: agreement.branding,
    logo: await documentLogo(agreement.branding),
    signature: agreement.signatureLine,
    locale: agreement.locale,
  });
  return new Response(new Uint8Array(bytes), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="merchant-agreement-${merchant.id}.pdf"`,
      "Cache-Control": "private, no-store",
    },
  });
});
