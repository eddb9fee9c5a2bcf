import { AlertDeliveryCard } from "@/features/alerts/components/alert-delivery-card";
import { SettingsPage } from "@/features/settings/components/settings-page";

/**
 * /dashboard/settings: the settings feature's page, then the alerts feature's delivery card
 * (market alerts are sent on the enterprise plan only, decision 0020).
 */
export function SettingsRoute() {
  return (
    <SettingsPage
      extra={(profile) => profile.plan === "enterprise" && <AlertDeliveryCard profile={profile} />}
    />
  );
}
