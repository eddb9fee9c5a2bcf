import { InfoIcon } from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";

type LegalArticleProps = {
  title: string;
  children: ReactNode;
};

/**
 * Frame of the static German legal pages (spec section 2: German whatever the
 * interface language). The text therefore lives here, not in the locale files;
 * other languages get a translated note that the page is German only.
 */
export function LegalArticle({ title, children }: LegalArticleProps) {
  const { t, i18n } = useTranslation("legal");

  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-6 px-4 py-12 md:py-16">
      {i18n.resolvedLanguage !== "de" && (
        <p className="flex items-start gap-2 rounded-md border bg-muted/50 px-3 py-2 text-sm text-muted-foreground">
          <InfoIcon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          {t("germanOnly")}
        </p>
      )}
      <article
        lang="de"
        className="flex flex-col gap-4 text-sm leading-relaxed text-pretty break-words text-foreground/90 [&_a]:text-primary [&_a]:underline [&_a]:underline-offset-4 [&_h2]:mt-6 [&_h2]:text-lg [&_h2]:font-semibold [&_h2]:text-foreground [&_ul]:list-disc [&_ul]:space-y-1 [&_ul]:pl-5"
      >
        <h1 className="text-3xl font-bold tracking-tight text-foreground md:text-4xl">{title}</h1>
        {children}
      </article>
    </div>
  );
}
