import { getTranslations } from "next-intl/server";

import { HostMessage } from "@/components/embed/embed-bridge";
import { BrandShell } from "@/components/onboarding/brand-shell";
import { currentFrame } from "@/lib/home/current-frame";

export async function generateMetadata() {
  const t = await getTranslations("merchantHome.embed");
  return { title: t("unavailableTitle") };
}

const reasons = ["component", "not_approved", "expired"] as const;

// /home/unavailable: inside an embedded component's frame, a page it does not open, a merchant not yet
// approved, or a frame session past its hour (said to the host page too: its loader asks for a new
// client secret).
export default async function Unavailable({ searchParams }: { searchParams: Promise<{ reason?: string }> }) {
  const asked = (await searchParams).reason;
  const reason = reasons.find((r) => r === asked) ?? "component";
  const t = await getTranslations("merchantHome.embed");
  const frame = await currentFrame();
  return (
    <BrandShell branding={null}>
      <div role="status" className="rounded-lg border border-line bg-card p-6">
        <h1 className="text-xl font-semibold">{t("unavailableTitle")}</h1>
        <p className="mt-2">{t(`unavailable.${reason}`)}</p>
      </div>
      {frame.kind === "expired" ? (
        <HostMessage
          origin={frame.origin}
          message={{ type: "error", code: "session_expired", message: "The component's session ended" }}
        />
      ) : null}
    </BrandShell>
  );
}
