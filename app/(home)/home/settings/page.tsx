import { getFormatter, getTranslations } from "next-intl/server";

import { HomeShell } from "@/components/home/home-shell";
import { PayoutCardSection } from "@/components/home/payout-card-section";
import { RefreshWhile } from "@/components/home/refresh-while";
import { SettingsForm } from "@/components/home/settings-form";
import { StepUp } from "@/components/home/step-up";
import { primaryButtonClass } from "@/components/ui/button";
import { fileInputClass } from "@/components/ui/file-picker";
import { RotateKey } from "@/components/ui/rotate-key";
import { homeBankAccountAction, homeContactAction, homeRotateKeyAction, homeStepUpAction } from "@/lib/actions/home";
import { isFreshSession } from "@/lib/auth/home-session";
import { brandOf, newBankAccountHoldDaysOf, settingsOf } from "@/lib/domain/accounts/isv-facts";
import { bankAccountSummary, bankCheckOf, bankHoldEndsAt, merchantAccountSid } from "@/lib/domain/home/settings";
import { activePayoutCard, payoutCardState } from "@/lib/domain/payouts/payout-card";
import { payoutFailureOf } from "@/lib/domain/payouts/rules";
import { payoutSettingsOf } from "@/lib/domain/payouts/settings";
import { env } from "@/lib/env";
import { requireMerchant } from "@/lib/home/session";
import { messageOr } from "@/lib/i18n/dynamic";
import type { LooseJson } from "@/lib/loose-json";
import { businessName } from "@/lib/merchants/facts";
import { instantRail } from "@/lib/payouts/instant-rail";
import { serializePayoutCard } from "@/lib/serializers/payout-card";

/** An upload's refusal (the file rules' codes) in the merchant's words (the verification's messages). */
const uploadErrors: Record<string, string> = {
  file_too_large: "tooLarge",
  file_type_unsupported: "wrongType",
  file_empty: "unreadable",
  file_unreadable: "unreadable",
  image_too_large: "tooManyPixels",
  file_duplicate: "duplicate",
  document_not_needed: "notNeeded",
};

export async function generateMetadata() {
  const t = await getTranslations("merchantHome");
  return { title: t("settingsTitle") };
}

// /home/settings: the merchant's contact and business phone; the bank account payments reach
// (masked); and its own API key (its account SID, a new secret shown once) for software of its own.
export default async function HomeSettings({ searchParams }: { searchParams: Promise<{ upload?: string }> }) {
  const { db, merchant, isv, session } = await requireMerchant();
  const { upload } = await searchParams;
  const verification = await getTranslations("verification");
  const t = await getTranslations("merchantHome");
  const format = await getFormatter();
  const dashboard = await getTranslations("dashboard");
  const brand = brandOf(isv);
  const app = merchant.application as LooseJson;
  const contact = (app.main_contact_person ?? {}) as { name?: string; email?: string };
  const bank = bankAccountSummary(merchant);
  const check = bankCheckOf(merchant);
  // A payout this account refused asks for a new one (docs/reference.md section 16).
  const payoutFailed = payoutFailureOf(merchant.requirements) !== undefined;
  const payoutWords = await getTranslations("payouts");
  const uploadError = upload && upload !== "done" ? (uploadErrors[upload] ?? "failed") : null;
  const sid = await merchantAccountSid(db, merchant);
  // A bank account or contact change needs a recent sign-in, and none while payouts are frozen.
  const payoutSettings = await payoutSettingsOf(db, merchant.id);
  const frozen = payoutSettings.frozenAt !== null;
  const fresh = session !== null && isFreshSession(session);
  const stepUp = !frozen && !fresh ? <StepUp email={contact.email ?? ""} action={homeStepUpAction} /> : null;
  const holdDays = newBankAccountHoldDaysOf(isv);
  const cooling = bankHoldEndsAt(merchant, payoutSettings);
  // The debit card for instant payouts, where the ISV enables them and cards can be paid.
  const instantOn = settingsOf(isv).instant_payouts_enabled && instantRail().pushesToCards;
  const payoutCard = instantOn ? await activePayoutCard(db, merchant.id) : null;
  return (
    <HomeShell branding={brand} business={businessName(merchant) || merchant.id} section="settings">
      <h1 className="text-2xl font-semibold">{t("settingsTitle")}</h1>
      {frozen ? (
        <p role="alert" className="mt-4 rounded-lg border-2 border-danger bg-card p-3" data-testid="payouts-frozen">
          {t("frozenBanner")}
        </p>
      ) : null}
      {stepUp}
      <section aria-labelledby="contact-title" className="mt-5 rounded-lg border border-line bg-card p-4">
        <h2 id="contact-title" className="text-lg font-semibold">
          {t("contactTitle")}
        </h2>
        <p className="mt-1 text-sm text-muted">{t("contactIntro")}</p>
        {frozen || !fresh ? (
          <dl className="mt-3 grid gap-1 sm:grid-cols-[auto_1fr] sm:gap-x-4" data-testid="contact-on-file">
            <dt className="font-medium">{t("fields.name")}</dt>
            <dd>{contact.name ?? ""}</dd>
            <dt className="font-medium">{t("fields.email")}</dt>
            <dd className="break-all">{contact.email ?? ""}</dd>
          </dl>
        ) : null}
        {merchant.pendingContactEmail ? (
          <p role="status" className="mt-2 rounded-lg border border-line p-3" data-testid="contact-pending">
            {t("contactPending", { email: merchant.pendingContactEmail.email })}
          </p>
        ) : null}
        <div className="mt-3" hidden={frozen || !fresh}>
          <SettingsForm
            id="contact"
            fields={[
              { key: "name", autoComplete: "name" },
              { key: "email", type: "email", autoComplete: "email" },
              { key: "business_phone", type: "tel", autoComplete: "tel", optional: true },
            ]}
            initial={{ name: contact.name ?? "", email: contact.email ?? "", business_phone: app.business_phone ?? "" }}
            action={homeContactAction}
            submitLabel={t("save")}
          />
        </div>
      </section>
      <section aria-labelledby="bank-title" className="mt-5 rounded-lg border border-line bg-card p-4">
        <h2 id="bank-title" className="text-lg font-semibold">
          {t("bankTitle")}
        </h2>
        <p className="mt-1" data-testid="bank-account">
          {bank ? t("bankOnFile", { bank: bank.bankName ?? t("bankUnnamed"), last4: bank.last4 }) : t("bankNone")}
        </p>
        {payoutFailed ? (
          <p className="mt-2 rounded-lg border-2 border-primary p-3" role="note" data-testid="payout-failed">
            {payoutWords("failedSettings")}
          </p>
        ) : null}
        <RefreshWhile active={check?.status === "pending"} />
        {check ? (
          <p className="mt-1 font-medium" role="status" data-testid="bank-check">
            {t(`bankCheck.${check.status}`)}
          </p>
        ) : null}
        {check?.status === "requires_document" ? (
          <form
            method="post"
            action="/home/documents/upload"
            encType="multipart/form-data"
            className="mt-3 rounded-lg border border-line p-3"
          >
            <label htmlFor="bank-document" className="block font-medium">
              {verification("titleBank")}
            </label>
            <p id="bank-document-hint" className="text-sm text-muted">
              {t("bankDocumentHint")} {verification("accepted")}
            </p>
            <input
              id="bank-document"
              name="file"
              type="file"
              required
              accept="image/jpeg,image/png,application/pdf"
              aria-describedby={uploadError ? "bank-document-hint bank-document-error" : "bank-document-hint"}
              aria-invalid={uploadError ? true : undefined}
              className={fileInputClass}
            />
            {uploadError ? (
              <p id="bank-document-error" role="alert" className="mt-1 text-sm text-danger">
                {messageOr(verification, `errors.${uploadError}`) ?? verification("errors.failed")}
              </p>
            ) : null}
            <button type="submit" className={primaryButtonClass("md", "mt-2")}>
              {verification("send")}
            </button>
          </form>
        ) : null}
        {cooling ? (
          <p className="mt-1" role="status" data-testid="bank-cooling">
            {t("bankCooling", { date: format.dateTime(cooling, { dateStyle: "long" }) })}
          </p>
        ) : null}
        <h3 className="mt-4 font-semibold">{t("bankNew")}</h3>
        <p className="text-sm text-muted">
          {t("bankNewHint")} {t("bankHoldNote", { days: holdDays })}
        </p>
        <div className="mt-2" hidden={frozen || !fresh}>
          <SettingsForm
            id="bank"
            fields={[
              { key: "account_holder_name", autoComplete: "name" },
              { key: "bank_name" },
              { key: "routing_number", inputMode: "numeric" },
              { key: "account_number", inputMode: "numeric" },
              { key: "account_number_confirm", inputMode: "numeric" },
            ]}
            initial={{
              account_holder_name: "",
              bank_name: "",
              routing_number: "",
              account_number: "",
              account_number_confirm: "",
            }}
            action={homeBankAccountAction}
            submitLabel={t("bankSave")}
          />
        </div>
      </section>
      {instantOn ? (
        <PayoutCardSection
          card={payoutCard ? serializePayoutCard(payoutCard) : null}
          cooling={payoutCard !== null && payoutCardState(payoutCard) === "cooling"}
          canAdd={!frozen && fresh}
          publishableKey={merchant.payment.tokenizer_publishable_key ?? ""}
          tokenizerOrigin={env.TOKENIZER_ORIGIN}
          accent={brand.primary_color ?? "#1d4ed8"}
        />
      ) : null}
      <section aria-labelledby="key-title" className="mt-5 rounded-lg border border-line bg-card p-4">
        <h2 id="key-title" className="text-lg font-semibold">
          {t("keyTitle")}
        </h2>
        <p className="mt-1">{t("keyIntro")}</p>
        {sid ? (
          <>
            <p className="mt-2">
              {dashboard("accountSid")}:{" "}
              <code className="break-all" data-testid="merchant-account-sid">
                {sid}
              </code>
            </p>
            {frozen ? (
              <p className="mt-2 text-sm text-muted" data-testid="key-frozen">
                {t("keyFrozen")}
              </p>
            ) : fresh ? (
              <RotateKey action={homeRotateKeyAction} accountSid={sid} />
            ) : (
              <p className="mt-2 text-sm text-muted" data-testid="key-step-up">
                {t("keyStepUp")}
              </p>
            )}
          </>
        ) : null}
      </section>
    </HomeShell>
  );
}
