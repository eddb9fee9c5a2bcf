import type { ParseKeys } from "i18next";
import { ActivityIcon } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";

type FooterColumn = {
  titleKey: ParseKeys<"common">;
  links: { to: string; labelKey: ParseKeys<"common"> }[];
};

const COLUMNS: FooterColumn[] = [
  {
    titleKey: "footer.product",
    links: [
      { to: "/pricing", labelKey: "footer.pricing" },
      { to: "/", labelKey: "footer.features" },
    ],
  },
  {
    titleKey: "footer.legal",
    links: [
      { to: "/impressum", labelKey: "footer.imprint" },
      { to: "/datenschutz", labelKey: "footer.privacy" },
    ],
  },
  {
    titleKey: "footer.support",
    links: [
      { to: "/auth/login", labelKey: "footer.login" },
      { to: "/auth/register", labelKey: "footer.signUp" },
    ],
  },
];

export function Footer() {
  const { t } = useTranslation();
  const year = new Date().getFullYear();

  return (
    <footer className="border-t bg-muted/30">
      <div className="mx-auto grid w-full max-w-6xl gap-8 px-4 py-10 sm:grid-cols-2 md:grid-cols-4">
        <div className="flex flex-col gap-2">
          <p className="flex items-center gap-2 font-bold">
            <ActivityIcon className="size-5 text-primary" aria-hidden="true" />
            {t("app.name")}
          </p>
          <p className="text-sm text-muted-foreground">{t("footer.tagline")}</p>
        </div>
        {COLUMNS.map((column) => (
          <nav key={column.titleKey} aria-label={t(column.titleKey)}>
            <h2 className="mb-3 text-sm font-semibold">{t(column.titleKey)}</h2>
            <ul className="flex flex-col gap-2 text-sm">
              {column.links.map((link) => (
                <li key={link.labelKey}>
                  <Link
                    to={link.to}
                    className="text-muted-foreground transition-colors hover:text-foreground"
                  >
                    {t(link.labelKey)}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        ))}
      </div>
      <div className="border-t">
        <div className="mx-auto flex w-full max-w-6xl flex-col gap-1 px-4 py-6 text-xs text-muted-foreground">
          <p>{t("footer.disclaimer")}</p>
          <p>{t("footer.copyright", { year })}</p>
        </div>
      </div>
    </footer>
  );
}
