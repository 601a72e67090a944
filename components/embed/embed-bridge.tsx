"use client";

import { usePathname } from "next/navigation";
import { useEffect } from "react";

import { primaryButtonClass } from "@/components/ui/button";
import { type FrameMessage, postToHost } from "@/lib/embed/protocol";

// Inside an embedded component's frame: tells the host page (its origin only, checked by the
// loader too) when a page is painted, which onboarding step shows, and how tall the content is, so
// that the frame is sized to it (no inner scrollbar); a link that would leave the frame is handed to
// the host page instead.

// The messages and their sending are the protocol's (lib/embed/protocol.ts), shared with the loader.

export function EmbedBridge({ origin }: { origin: string }) {
  const pathname = usePathname();

  useEffect(() => {
    postToHost(origin, { type: "ready", path: pathname });
    // The wizard's steps (the completion page is said by onb-submitted instead).
    const step = /^\/onboarding\/([a-z]+)$/.exec(pathname)?.[1];
    if (step && step !== "complete") postToHost(origin, { type: "step-change", step });
  }, [origin, pathname]);

  useEffect(() => {
    const root = document.querySelector<HTMLElement>("[data-embed-root]");
    if (!root) return;
    // Nothing reported yet: the first height is always sent, 0 included (an empty component).
    let last = -1;
    const report = () => {
      // A page with nothing to show marks it (data-embed-empty): its frame takes no room on the host page.
      const height = root.querySelector("[data-embed-empty]") ? 0 : Math.ceil(root.getBoundingClientRect().height);
      if (height !== last) {
        last = height;
        postToHost(origin, { type: "resize", height });
      }
    };
    const observer = new ResizeObserver(report);
    observer.observe(root);
    report();
    return () => observer.disconnect();
  }, [origin]);

  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      const anchor = (event.target as Element | null)?.closest?.("a[href]") as HTMLAnchorElement | null;
      if (!anchor) return;
      const url = new URL(anchor.href, location.href);
      if (url.origin === location.origin) {
        // A download inside the frame: the browser's download request does not carry the frame's
        // partitioned cookies, so the file is fetched here (it does) and saved from memory.
        if (anchor.hasAttribute("download") && !anchor.href.startsWith("blob:")) {
          event.preventDefault();
          void downloadInFrame(url.href, anchor.getAttribute("download") || "");
        }
        return;
      }
      event.preventDefault();
      postToHost(origin, { type: "link", url: url.href });
    };
    document.addEventListener("click", onClick);
    return () => document.removeEventListener("click", onClick);
  }, [origin]);

  return null;
}

/** Fetches a same-origin file with the frame's cookies and saves it under the server's file name. */
async function downloadInFrame(href: string, fallbackName: string) {
  const res = await fetch(href, { credentials: "same-origin" });
  if (!res.ok) return;
  const disposition = res.headers.get("content-disposition") ?? "";
  const name = /filename="?([^";]+)"?/.exec(disposition)?.[1] ?? (fallbackName || "download");
  const url = URL.createObjectURL(await res.blob());
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Says one thing to the host page when it renders (the onboarding's submission, an error). */
export function HostMessage({ origin, message }: { origin: string; message: FrameMessage }) {
  const key = JSON.stringify(message);
  useEffect(() => {
    postToHost(origin, JSON.parse(key) as FrameMessage);
  }, [origin, key]);
  return null;
}

/** The last page's button: the host page decides what comes next (onb-exit). */
export function ExitButton({ origin, label, status }: { origin: string; label: string; status?: string }) {
  return (
    <button
      type="button"
      onClick={() => postToHost(origin, { type: "exit", reason: "done", status })}
      className={primaryButtonClass("lg", "mt-6 inline-block")}
    >
      {label}
    </button>
  );
}
