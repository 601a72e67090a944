// An ISV's React page with embedded components, through @onb/react (packages/react). Served by
// server.mjs beside it; the service's address comes from the page (window.ONB_SERVICE).
import {
  type OnbComponentName,
  OnbComponentsProvider,
  OnbNotificationBanner,
  OnbOnboarding,
  OnbPayments,
  OnbPayouts,
  OnbStatements,
} from "@onb/react";
import { useState } from "react";
import { createRoot } from "react-dom/client";

const query = new URLSearchParams(location.search);
const merchantId = query.get("merchant") ?? "";
const show = query.get("show") ?? "payments";
const locale = query.get("locale") === "es" ? "es" : "en";

/** Your backend makes the account session; only its client secret reaches this page. */
async function fetchClientSecret(component: OnbComponentName) {
  const res = await fetch("/account-session", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ component, merchant_id: merchantId }),
  });
  if (!res.ok) throw new Error(`account session: ${res.status}`);
  return ((await res.json()) as { client_secret: string }).client_secret;
}

function App() {
  const [events, setEvents] = useState<string[]>([]);
  const log = (type: string) => (detail: object) => setEvents((list) => [...list, `${type} ${JSON.stringify(detail)}`]);
  const handlers = {
    onReady: log("onb-ready"),
    onStepChange: log("onb-step-change"),
    onSubmitted: log("onb-submitted"),
    onExit: log("onb-exit"),
    onLoadError: log("onb-load-error"),
  };
  return (
    <OnbComponentsProvider
      serviceUrl={(window as unknown as { ONB_SERVICE: string }).ONB_SERVICE}
      fetchClientSecret={fetchClientSecret}
      locale={locale}
      appearance={{ colorPrimary: "#0f766e", borderRadius: "12px" }}
    >
      <main style={{ maxWidth: 960, margin: "0 auto", padding: 16, fontFamily: "system-ui, sans-serif" }}>
        <h1>Acme Salon Software</h1>
        {show.split(",").map((name) => {
          const Component = {
            payments: OnbPayments,
            payouts: OnbPayouts,
            statements: OnbStatements,
            onboarding: OnbOnboarding,
            notification_banner: OnbNotificationBanner,
          }[name];
          return Component ? (
            <section key={name} aria-label={name}>
              <Component {...handlers} />
            </section>
          ) : null;
        })}
        <h2>Events</h2>
        <ul aria-label="Events">
          {events.map((event, i) => (
            <li key={i} style={{ overflowWrap: "anywhere" }}>
              {event}
            </li>
          ))}
        </ul>
      </main>
    </OnbComponentsProvider>
  );
}

const root = document.getElementById("root");
if (root) createRoot(root).render(<App />);
