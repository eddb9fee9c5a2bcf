import { Suspense } from "react";
import { AlertDeliveryCard } from "@/features/alerts/components/alert-delivery-card";
import { AlertMessagePreview } from "@/features/alerts/components/alert-message-preview";
import { SettingsPage } from "@/features/settings/components/settings-page";

/**
 * /dashboard/settings: the settings feature's page, then the alerts feature's delivery card
 * (market alerts are sent on the enterprise plan only, decision 0020) and a preview of the
 * messages in the recipient's language and zone (its language's texts may load a moment later).
 */
export function SettingsRoute() {
  return (
    <SettingsPage
      extra={(profile) =>
        profile.plan === "enterprise" && (
          <>
            <AlertDeliveryCard profile={profile} />
            <Suspense fallback={null}>
              <AlertMessagePreview profile={profile} />
            </Suspense>
          </>
        )
      }
    />
  );
}
