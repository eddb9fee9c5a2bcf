import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button";

/** "Page 2 of 3 · Total: 45" with Previous and Next; `page` is 0-based. */
export function TablePager({
  page,
  pages,
  total,
  onPage,
  testId,
}: {
  page: number;
  pages: number;
  total: number;
  /** Called with the 0-based page to show. */
  onPage: (page: number) => void;
  testId?: string;
}) {
  const { t, i18n } = useTranslation("admin");
  const number = new Intl.NumberFormat(i18n.language);
  return (
    <div className="flex flex-wrap items-center justify-between gap-2 text-sm text-muted-foreground">
      <span data-testid={testId}>
        {t("users.pageInfo", {
          page: number.format(page + 1),
          pages: number.format(pages),
          total: number.format(total),
        })}
      </span>
      <div className="flex flex-wrap gap-2">
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
