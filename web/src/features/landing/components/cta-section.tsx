import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { Button } from "@/components/ui/button";

export function CtaSection() {
  const { t } = useTranslation("landing");

  return (
    <section aria-labelledby="cta-title" className="mx-auto w-full max-w-6xl px-4 py-16">
      <div className="flex flex-col items-center gap-4 rounded-2xl border bg-primary/10 px-6 py-12 text-center">
        <h2 id="cta-title" className="text-3xl font-bold tracking-tight text-balance">
          {t("cta.title")}
        </h2>
        <p className="max-w-xl text-pretty text-muted-foreground">{t("cta.subtitle")}</p>
        <Button asChild size="lg">
          <Link to="/pricing">{t("cta.viewPricing")}</Link>
        </Button>
      </div>
    </section>
  );
}
