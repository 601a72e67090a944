"use client";
import { useEffect, useRef, useState } from "react";

// The page's side of the tokenizer frame's messages (docs/reference.md section 10): the card or bank
// fields live in the frame, on its own origin; the page hears only from that origin and that frame,
// sizes the frame as it asks, and asks it for a token. The frame's side is lib/tokenizer.

export type FrameMessage = { source?: string; type?: string; token?: string; height?: number; message?: string };

/**
 * The tokenizer frame of a pay form: its ref (an `<iframe>` of `tokenizerOrigin`), the height it asks
 * for, whether its script has said it is there, the page's origin (known once in the browser, for the
 * frame's address), `measure` (ask its height again) and `tokenize` (its token, or why not).
 * `onSubmit`: the frame's Enter key.
 */
export function useTokenizerFrame(tokenizerOrigin: string, onSubmit: () => void) {
  const frame = useRef<HTMLIFrameElement>(null);
  const pending = useRef<((m: FrameMessage) => void) | null>(null);
  // The frame whose script runs (it said "ready"): a message sent to a frame before that would be lost.
  const readyFrame = useRef<MessageEventSource | null>(null);
  const onReady = useRef<(() => void) | null>(null);
  const [height, setHeight] = useState(190);
  // Until the frame's script says it is there, a placeholder of its fields stands in its place.
  const [frameShown, setFrameShown] = useState(false);
  // The frame is told which page frames it (it answers only that origin); known once in the browser.
  const [pageOrigin, setPageOrigin] = useState<string | null>(null);
  const submit = useRef(onSubmit);
  useEffect(() => {
    submit.current = onSubmit;
  });

  useEffect(() => {
    const onMessage = (event: MessageEvent<FrameMessage>) => {
      if (
        event.origin !== tokenizerOrigin ||
        event.source !== frame.current?.contentWindow ||
        event.data?.source !== "tokenizer"
      )
        return;
      const data = event.data;
      if (data.type === "ready" || data.type === "resize") {
        readyFrame.current = event.source;
        setFrameShown(true);
        onReady.current?.();
        onReady.current = null;
      }
      if (data.type === "resize" && data.height) setHeight(Math.ceil(data.height) + 4);
      else if (data.type === "submit") submit.current();
      else if (pending.current && (data.type === "token" || data.type === "invalid" || data.type === "error")) {
        pending.current(data);
        pending.current = null;
      }
    };
    window.addEventListener("message", onMessage);
    setPageOrigin(window.location.origin);
    // The frame may have loaded (and sent its height) before this listener existed.
    frame.current?.contentWindow?.postMessage({ type: "measure" }, tokenizerOrigin);
    return () => window.removeEventListener("message", onMessage);
  }, [tokenizerOrigin]);

  // Each method has a frame of its own: the one shown now must have said it is ready.
  const whenFrameReady = () =>
    readyFrame.current !== null && readyFrame.current === frame.current?.contentWindow
      ? Promise.resolve(true)
      : new Promise<boolean>((resolve) => {
          // Asked again and again until its script answers (its first "ready" may have come and gone).
          const ask = setInterval(
            () => frame.current?.contentWindow?.postMessage({ type: "measure" }, tokenizerOrigin),
            200,
          );
          const timer = setTimeout(() => {
            clearInterval(ask);
            onReady.current = null;
            resolve(false);
          }, 15_000);
          onReady.current = () => {
            clearInterval(ask);
            clearTimeout(timer);
            resolve(readyFrame.current === frame.current?.contentWindow);
          };
        });

  const tokenize = async (): Promise<FrameMessage> => {
    if (!(await whenFrameReady())) return { type: "error" };
    return new Promise<FrameMessage>((resolve) => {
      pending.current = resolve;
      frame.current?.contentWindow?.postMessage({ type: "tokenize" }, tokenizerOrigin);
    });
  };

  const measure = () => frame.current?.contentWindow?.postMessage({ type: "measure" }, tokenizerOrigin);
  return { frame, height, frameShown, setFrameShown, pageOrigin, measure, tokenize };
}
