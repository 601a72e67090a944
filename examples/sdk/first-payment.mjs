// The quickstart through the TypeScript SDK (@onb/node), from a merchant to its first statement, in
// the sandbox. docs/quickstart.md says how to install the SDK and run this; the SDK's tests run it.
//
//   ONB_BASE_URL=http://localhost:3000 ACCOUNT_SID=… SECRET_KEY=… APPLICATION_FILE=application.json \
//     node first-payment.mjs
/* global process, fetch, URL, setTimeout, console */
/* eslint-disable no-console */
import fs from "node:fs";

import { Onb, OnbInvalidRequestError } from "@onb/node";

const onb = new Onb({
  baseUrl: process.env.ONB_BASE_URL ?? "http://localhost:3000",
  accountSid: process.env.ACCOUNT_SID,
  secretKey: process.env.SECRET_KEY,
});
const say = (...words) => console.log(...words);

// 1. A merchant, its whole application prefilled, and its onboarding link.
const application = JSON.parse(fs.readFileSync(process.env.APPLICATION_FILE ?? "application.json", "utf8"));
const merchant = await onb.merchants.create({ phone: "+14155550123", merchant: application });
const link = await onb.onboardingLinks.create({
  merchant_id: merchant.id,
  type: "account_onboarding",
  return_url: "https://your-app.example/onboarded",
});
say("merchant", merchant.id, "onboards at", link.url);

// 2. The merchant's part, which its browser does in the wizard: open the link (its cookie is the
//    session's token), choose a device, sign, submit.
const opened = await fetch(new URL(new URL(link.url).pathname, onb.baseUrl), { redirect: "manual" });
const session = opened.headers.get("set-cookie")?.match(/onboarding_session=([^;]+)/)?.[1];
if (!session) throw new Error(`the link did not open (${opened.status})`);
const owner = application.owner_one;
await onb.onboardingSession.update({ device: { catalog_id: "pax-a920" } }, { bearerToken: session });
await onb.onboardingSession.signAgreement({ name: `${owner.first_name} ${owner.last_name}` }, { bearerToken: session });
await onb.onboardingSession.submit({ bearerToken: session });

// 3. Underwriting decides within seconds (your webhook hears merchant.approved; here, we ask).
let approved = await onb.merchants.retrieve(merchant.id);
for (let i = 0; i < 100 && approved.lead_onboarding_status !== "APPROVED"; i++) {
  if (approved.lead_onboarding_status === "FAILED") throw new Error("declined: is the TIN 000000000?");
  await new Promise((resolve) => setTimeout(resolve, 200));
  approved = await onb.merchants.retrieve(merchant.id);
}
say("merchant", approved.lead_onboarding_status);

// 4. A payment: the request, the card tokenized with the merchant's publishable key (what the pay
//    page's frame does), paid.
const request = await onb.paymentRequests.createScanToPay({
  merchant_id: merchant.id,
  items: [{ name: "Flat white", quantity: 2, unit_price: 450 }],
  taxPercent: "8.875",
});
say("pay at", request.pay_url);
const token = await onb.tokens.create(
  { card: { number: "4242424242424242", exp_month: 12, exp_year: new Date().getFullYear() + 2, cvc: "123" } },
  { bearerToken: approved.payment.tokenizer_publishable_key },
);
const result = await onb.paymentRequests.pay(request.id, { token: token.id });
say("payment", result.outcome, result.charge.id, result.charge.amount);

// 5. A refund, and one too many: a typed error, nothing refunded.
const refund = await onb.refunds.create({ charge_id: result.charge.id, amount: 300 });
say("refund", refund.id, refund.amount);
try {
  await onb.refunds.create({ charge_id: result.charge.id, amount: 100_000 });
} catch (error) {
  if (!(error instanceof OnbInvalidRequestError)) throw error;
  say("refused", error.code);
}

// 6. Settled now (the sandbox's helper), paid out, and the month's statement.
const [settlement] = (await onb.testHelpers.runSettlement({ merchant_id: merchant.id })).data;
say("settlement", settlement.id, "net", settlement.net);
for await (const payout of onb.payouts.list({ merchant_id: merchant.id })) say("payout", payout.id, payout.amount);
const period = new Date().toISOString().slice(0, 7);
const statement = await onb.testHelpers.generateStatement({ merchant_id: merchant.id, period });
const pdf = await onb.statements.download(merchant.id, statement.id, { format: "pdf" });
fs.writeFileSync(`statement-${period}.pdf`, pdf.data);
say("statement", statement.id, `statement-${period}.pdf`, pdf.data.length, "bytes");
