import {
  BellRingIcon,
  ChartCandlestickIcon,
  HeadsetIcon,
  RadarIcon,
  ShieldCheckIcon,
  TimerIcon,
  CircleXIcon,
  type LucideIcon,
} from "lucide-react";
import { useTranslation } from "react-i18next";
import { Card, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";

const FEATURES = [
  { key: "realTime", icon: RadarIcon },
  { key: "charts", icon: ChartCandlestickIcon },
  { key: "alerts", icon: BellRingIcon },
  { key: "windows", icon: TimerIcon },
  { key: "privacy", icon: ShieldCheckIcon },
  { key: "support", icon: HeadsetIcon },
  { key: "cancel", icon: CircleXIcon },
] as const satisfies ReadonlyArray<{ key: string; icon: LucideIcon }>;

export function FeaturesSection() {
  const { t } = useTranslation("landing");

  return (
    <section
      id="features"
      aria-labelledby="features-title"
      className="mx-auto w-full max-w-6xl scroll-mt-20 px-4 py-12"
    >
      <div className="mb-8 max-w-2xl">
        <h2 id="features-title" className="text-3xl font-bold tracking-tight">
          {t("features.title")}
        </h2>
        <p className="mt-2 text-muted-foreground">{t("features.subtitle")}</p>
      </div>
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {FEATURES.map(({ key, icon: Icon }, index) => (
          // Seven cards: the last one spans two columns so no row is left ragged.
          <li key={key} className={index === FEATURES.length - 1 ? "sm:col-span-2" : undefined}>
            <Card className="h-full gap-3">
              <CardHeader>
                <Icon className="mb-2 size-6 text-primary" aria-hidden="true" />
                <CardTitle>
                  <h3>{t(`features.items.${key}.title`)}</h3>
                </CardTitle>
                <CardDescription>{t(`features.items.${key}.description`)}</CardDescription>
              </CardHeader>
            </Card>
          </li>
        ))}
      </ul>
    </section>
  );
}
