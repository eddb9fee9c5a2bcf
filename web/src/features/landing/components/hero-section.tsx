import { ArrowRightIcon } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";

export function HeroSection() {
  const { t } = useTranslation("landing");

  return (
    <section
      aria-labelledby="hero-title"
      className="relative overflow-hidden border-b bg-gradient-to-b from-primary/10 via-background to-background"
    >
      <div className="mx-auto flex w-full max-w-6xl flex-col items-center gap-6 px-4 py-20 text-center md:py-28">
        <Badge variant="outline" className="max-w-full whitespace-normal">
          {t("hero.eyebrow")}
        </Badge>
        <h1
          id="hero-title"
          className="max-w-3xl text-4xl font-extrabold tracking-tight text-balance md:text-6xl"
        >
          {t("hero.title")}
        </h1>
        <p className="max-w-2xl text-lg text-pretty text-muted-foreground">{t("hero.subtitle")}</p>
        <Button asChild size="lg">
          <Link to="/pricing">
            {t("hero.getStarted")}
            <ArrowRightIcon aria-hidden="true" />
          </Link>
        </Button>
      </div>
    </section>
  );
}
