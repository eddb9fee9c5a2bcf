import { CtaSection } from "./cta-section";
import { FeaturesSection } from "./features-section";
import { HeroSection } from "./hero-section";
import { LiveUpdatesSection } from "./live-updates-section";

export function LandingPage() {
  return (
    <div data-testid="landing">
      <HeroSection />
      <LiveUpdatesSection />
      <FeaturesSection />
      <CtaSection />
    </div>
  );
}
