import type { TestApi } from "./api";
import { application } from "./fixtures";

/** Opens an onboarding link like a browser would; returns the session as a Bearer credential. */
export async function openLink(api: TestApi, url: string) {
  const res = await fetch(api.baseUrl + new URL(url).pathname, { redirect: "manual" });
  const token = res.headers.get("set-cookie")?.match(/onboarding_session=([^;]+)/)?.[1];
  if (!token) throw new Error(`link did not open (${res.status})`);
  return `Bearer ${token}`;
}

/** A merchant that went through the whole session API and submitted: underwriting is queued. */
export async function submittedMerchant(
  api: TestApi,
  isv: { auth: string },
  change: (app: any) => void = () => {},
  linkBody: Record<string, unknown> = {},
) {
  const app = application();
  change(app);
  const merchant = (
    await api.call("POST", "/v1/merchants", { auth: isv.auth, body: { phone: "+14155550123", merchant: app } })
  ).json;
  if (!merchant.id) throw new Error(JSON.stringify(merchant));
  const link = (
    await api.call("POST", "/v1/onboarding_links", {
      auth: isv.auth,
      body: {
        merchant_id: merchant.id,
        type: "account_onboarding",
        return_url: "https://isv.example/done",
        ...linkBody,
      },
    })
  ).json;
  const session = await openLink(api, link.url);
  await api.call("PATCH", "/v1/onboarding/session", { auth: session, body: { device: { catalog_id: "pax-a920" } } });
  const signed = await api.call("POST", "/v1/onboarding/session/agreement", {
    auth: session,
    body: { name: `${app.owner_one.first_name} ${app.owner_one.last_name}` },
  });
  if (signed.status !== 200) throw new Error(JSON.stringify(signed.json));
  const submitted = await api.call("POST", "/v1/onboarding/session/submit", { auth: session });
  if (submitted.status !== 200) throw new Error(JSON.stringify(submitted.json));
  return { id: merchant.id as string, session, submittedAt: Date.now() };
}

/**
 * Polls the merchant until its status is one of `statuses` (a COMPLETED one only once underwriting
 * has put it under review) and returns it; throws when the deadline passes first.
 */
export async function waitForStatus(
  api: TestApi,
  isv: { auth: string },
  id: string,
  statuses: string[],
  timeoutMs = 10_000,
) {
  const start = Date.now();
  let last: any;
  for (;;) {
    last = (await api.call("GET", `/v1/merchants/${id}`, { auth: isv.auth })).json;
    const settled = last.lead_onboarding_status !== "COMPLETED" || last.requirements.disabled_reason === "under_review";
    if (statuses.includes(last.lead_onboarding_status) && settled && last.lead_onboarding_status !== "COMPLETED")
      return last;
    if (Date.now() - start > timeoutMs)
      throw new Error(
        `merchant ${id} did not reach ${statuses.join(" or ")} in ${timeoutMs} ms (last: ${last.lead_onboarding_status})`,
      );
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * A merchant the ISV made (with any part of its application) taken through the wizard as its owner
 * would fill it (the sample application), signed, submitted and approved; unless it is approved or
 * submitted already. The merchant as the API answers it once approved.
 */
export async function onboardMerchant(api: TestApi, isv: { auth: string }, id: string) {
  // Its status now (underwriting may have approved it since the last answer that named it).
  const now = (await api.call("GET", `/v1/merchants/${id}`, { auth: isv.auth })).json;
  if (now.lead_onboarding_status !== "APPROVED" && now.lead_onboarding_status !== "COMPLETED") {
    const link = (
      await api.call("POST", "/v1/onboarding_links", {
        auth: isv.auth,
        body: { merchant_id: id, type: "account_onboarding" },
      })
    ).json;
    if (typeof link.url !== "string") throw new Error(`no onboarding link for ${id}: ${JSON.stringify(link)}`);
    const session = await openLink(api, link.url);
    const current = (await api.call("GET", "/v1/onboarding/session", { auth: session })).json;
    if (current.lead_onboarding_status === "IN_PROGRESS") {
      const app = application();
      await api.call("PATCH", "/v1/onboarding/session", { auth: session, body: { merchant: app } });
      await api.call("PATCH", "/v1/onboarding/session", {
        auth: session,
        body: { device: { catalog_id: "pax-a920" } },
      });
      await api.call("POST", "/v1/onboarding/session/agreement", {
        auth: session,
        body: { name: `${app.owner_one.first_name} ${app.owner_one.last_name}` },
      });
      const submitted = await api.call("POST", "/v1/onboarding/session/submit", { auth: session });
      if (submitted.status !== 200) throw new Error(`submit ${id}: ${submitted.status} ${submitted.text}`);
    }
  }
  return waitForStatus(api, isv, id, ["APPROVED"], 20_000);
}
