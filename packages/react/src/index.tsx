import {
  createContext,
  createElement,
  type CSSProperties,
  type ReactNode,
  useContext,
  useEffect,
  useRef,
  useState,
} from "react";

import type {
  OnbComponentElement,
  OnbComponentName,
  OnbEventMap,
  OnbExitDetail,
  OnbLinkDetail,
  OnbLoadErrorDetail,
  OnbReadyDetail,
  OnbStepChangeDetail,
  OnbSubmittedDetail,
} from "./generated/embed-types.js";

export type * from "./generated/embed-types.js";

/** The components' look: each becomes its CSS custom property on the element (docs/embedding.md, Appearance). */
export type OnbAppearance = {
  colorPrimary?: string;
  colorBackground?: string;
  colorText?: string;
  fontFamily?: string;
  fontSizeBase?: string;
  borderRadius?: string;
};

export type OnbLocale = "en" | "es";

type ProviderValue = {
  fetchClientSecret: (component: OnbComponentName) => Promise<string>;
  locale: OnbLocale | undefined;
  appearance: OnbAppearance | undefined;
  loader: LoaderState;
};

/** Whether the service's loader (`/embed/v1.js`) has run on this page. */
export type LoaderState = "loading" | "ready" | "failed";

const Context = createContext<ProviderValue | null>(null);

const cssVariables: Record<keyof OnbAppearance, string> = {
  colorPrimary: "--onb-color-primary",
  colorBackground: "--onb-color-background",
  colorText: "--onb-color-text",
  fontFamily: "--onb-font-family",
  fontSizeBase: "--onb-font-size-base",
  borderRadius: "--onb-border-radius",
};

/** The loader's script, added to the page once per service (several providers share it). */
function loadLoader(serviceUrl: string): Promise<void> {
  const src = `${serviceUrl.replace(/\/+$/, "")}/embed/v1.js`;
  const existing = [...document.querySelectorAll<HTMLScriptElement>("script[data-onb-loader]")].find(
    (s) => s.src === src,
  );
  if (existing?.dataset.onbLoader === "ready") return Promise.resolve();
  const script = existing ?? Object.assign(document.createElement("script"), { src, async: true });
  script.dataset.onbLoader ??= "loading";
  const done = new Promise<void>((resolve, reject) => {
    script.addEventListener("load", () => {
      script.dataset.onbLoader = "ready";
      resolve();
    });
    script.addEventListener("error", () => reject(new Error(`${src} did not load`)));
  });
  if (!existing) document.head.append(script);
  return done;
}

export type OnbComponentsProviderProps = {
  /** The service's address (your sandbox's or production's): the loader comes from there. */
  serviceUrl: string;
  /**
   * Asks your backend for a new account session's `client_secret` (POST /v1/account_sessions with
   * this component enabled): called for each component when it mounts, and whenever its secret ran out.
   */
  fetchClientSecret: (component: OnbComponentName) => Promise<string>;
  /** The components' language (default: the browser's). */
  locale?: OnbLocale;
  appearance?: OnbAppearance;
  children?: ReactNode;
};

/** Loads the service's loader once and gives its components their secrets, language and look. */
export function OnbComponentsProvider({
  serviceUrl,
  fetchClientSecret,
  locale,
  appearance,
  children,
}: OnbComponentsProviderProps) {
  const [loader, setLoader] = useState<LoaderState>("loading");
  useEffect(() => {
    let live = true;
    loadLoader(serviceUrl).then(
      () => live && setLoader("ready"),
      () => live && setLoader("failed"),
    );
    return () => {
      live = false;
    };
  }, [serviceUrl]);
  // The latest function, without a new context value (and remounted frames) on every render.
  const fetchRef = useRef(fetchClientSecret);
  fetchRef.current = fetchClientSecret;
  const [stableFetch] = useState(() => (component: OnbComponentName) => fetchRef.current(component));
  return (
    <Context.Provider value={{ fetchClientSecret: stableFetch, locale, appearance, loader }}>
      {children}
    </Context.Provider>
  );
}

/** The loader's state, for a component of your own that waits on it. */
export function useOnbLoader(): LoaderState {
  const value = useContext(Context);
  if (!value) throw new Error("useOnbLoader is used outside <OnbComponentsProvider>");
  return value.loader;
}

export type OnbComponentProps = {
  onReady?: (detail: OnbReadyDetail) => void;
  onStepChange?: (detail: OnbStepChangeDetail) => void;
  onSubmitted?: (detail: OnbSubmittedDetail) => void;
  onExit?: (detail: OnbExitDetail) => void;
  onLink?: (detail: OnbLinkDetail) => void;
  /** The component cannot show itself (its code says why); the loader's failure too (`load_failed`). */
  onLoadError?: (detail: OnbLoadErrorDetail) => void;
  /** This component's language, instead of the provider's. */
  locale?: OnbLocale;
  /** This component's look, over the provider's. */
  appearance?: OnbAppearance;
  className?: string;
  style?: CSSProperties;
};

const handlers: [keyof OnbEventMap, keyof OnbComponentProps][] = [
  ["onb-ready", "onReady"],
  ["onb-step-change", "onStepChange"],
  ["onb-submitted", "onSubmitted"],
  ["onb-exit", "onExit"],
  ["onb-link", "onLink"],
  ["onb-load-error", "onLoadError"],
];

const tagOf: Record<OnbComponentName, string> = {
  onboarding: "onb-onboarding",
  payments: "onb-payments",
  payouts: "onb-payouts",
  disputes: "onb-disputes",
  statements: "onb-statements",
  notification_banner: "onb-notification-banner",
};

function OnbComponent({ component, props }: { component: OnbComponentName; props: OnbComponentProps }) {
  const context = useContext(Context);
  if (!context) throw new Error(`<${tagOf[component]}> is used outside <OnbComponentsProvider>`);
  const ref = useRef<OnbComponentElement | null>(null);
  const propsRef = useRef(props);
  propsRef.current = props;

  // Events to the latest props' callbacks, bound once per element.
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const listeners = handlers.map(([type, prop]) => {
      const listener = (event: Event) => {
        const callback = propsRef.current[prop] as ((detail: unknown) => void) | undefined;
        callback?.((event as CustomEvent).detail);
      };
      element.addEventListener(type, listener);
      return () => element.removeEventListener(type, listener);
    });
    return () => listeners.forEach((remove) => remove());
  }, []);

  // The secret once the loader has defined the element (its setter mounts the frame).
  useEffect(() => {
    if (context.loader === "failed")
      props.onLoadError?.({ component, code: "load_failed", message: "The components' loader did not load" });
    if (context.loader !== "ready" || !ref.current) return;
    ref.current.fetchClientSecret = () => context.fetchClientSecret(component);
    // Only when the loader's state changes: a new render must not ask for a new secret.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [context.loader]);

  const appearance = { ...context.appearance, ...props.appearance };
  const style: Record<string, string | number | undefined> = { ...(props.style as Record<string, string>) };
  for (const [key, variable] of Object.entries(cssVariables))
    if (appearance[key as keyof OnbAppearance]) style[variable] = appearance[key as keyof OnbAppearance];
  const locale = props.locale ?? context.locale;
  return createElement(tagOf[component], {
    ref,
    style,
    ...(locale ? { locale } : {}),
    ...(props.className ? { className: props.className } : {}),
  });
}

/** The whole onboarding (documents and signature included), then the portal's requests and the outcome. */
export function OnbOnboarding(props: OnbComponentProps) {
  return <OnbComponent component="onboarding" props={props} />;
}
/** Payments, a payment with its refunds; refunds and the dispute as the session's features allow. */
export function OnbPayments(props: OnbComponentProps) {
  return <OnbComponent component="payments" props={props} />;
}
/** The next payout, settlements line by line, payouts. */
export function OnbPayouts(props: OnbComponentProps) {
  return <OnbComponent component="payouts" props={props} />;
}
/** Disputes, evidence and its submission. */
export function OnbDisputes(props: OnbComponentProps) {
  return <OnbComponent component="disputes" props={props} />;
}
/** Monthly statements, with their PDF and CSV. */
export function OnbStatements(props: OnbComponentProps) {
  return <OnbComponent component="statements" props={props} />;
}
/** What needs the merchant's attention. */
export function OnbNotificationBanner(props: OnbComponentProps) {
  return <OnbComponent component="notification_banner" props={props} />;
}
