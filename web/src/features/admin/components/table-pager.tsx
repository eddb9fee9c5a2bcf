import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button";

/**
 * "Page 2 of 3 · Total: 45" with Previous and Next (and `children`, e.g. an export menu, before
 * them); `page` is 0-based. A page past the end (a server-paged table's address) shows as the last.
 */
export function TablePager({
  page,
  pages,
  total,
  onPage,
  testId,
  children,
}: {
  page: number;
  pages: number;
  total: number;
  /** Called with the 0-based page to show. */
  onPage: (page: number) => void;
  testId?: string;
  children?: ReactNode;
}) {
  const { t, i18n } = useTranslation("admin");
  const number = new Intl.NumberFormat(i18n.language);
  return (
    <div className="flex flex-wrap items-center justify-between gap-2 text-sm text-muted-foreground">
      <span data-testid={testId}>
        {t("users.pageInfo", {
          page: number.format(Math.min(page + 1, pages)),
          pages: number.format(pages),
          total: number.format(total),
        })}
      </span>
      <div className="flex flex-wrap gap-2">
        {children}
        <Button size="sm" variant="outline" disabled={page === 0} onClick={() => onPage(page - 1)}>
          {t("users.previous")}
        </Button>
        <Button
          size="sm"
          variant="outline"
          disabled={page + 1 >= pages}
          onClick={() => onPage(page + 1)}
        >
          {t("users.next")}
        </Button>
      </div>
    </div>
  );
}
