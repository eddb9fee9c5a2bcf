import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { adminQueries } from "../api/queries";
import { formatEuros } from "../utils/format";

/**
 * The stat cards, refreshed every 30 s. Revenue and active subscriptions are paying Stripe
 * subscriptions only; plans switched on by hand (and admins' plans) have a card of their own.
 */
export function StatCards() {
  const { t, i18n } = useTranslation("admin");
  const stats = useQuery(adminQueries.stats());
  const s = stats.data;
  const number = (value: number | null | undefined) =>
    value === null || value === undefined
      ? "–"
      : new Intl.NumberFormat(i18n.language).format(value);
  const cards = [
    { id: "totalUsers", label: t("stats.totalUsers"), value: number(s?.total_users) },
    {
      id: "activeSubscriptions",
      label: t("stats.activeSubscriptions"),
      value: number(s?.active_subscriptions),
    },
    { id: "onlineNow", label: t("stats.onlineNow"), value: number(s?.online_users) },
    { id: "newSignups", label: t("stats.newSignups"), value: number(s?.recent_signups) },
    {
      id: "monthlyRevenue",
      label: t("stats.monthlyRevenue"),
      value: s ? formatEuros(s.total_revenue ?? 0, i18n.language) : "–",
    },
    { id: "bannedUsers", label: t("stats.bannedUsers"), value: number(s?.banned_users) },
    {
      id: "complimentary",
      label: t("stats.complimentary"),
      value: number(s?.complimentary_subscriptions),
      note: s ? t("stats.adminPlans", { count: s.admin_plans }) : undefined,
    },
  ];
  return (
    <section
      aria-label={t("stats.label")}
      className="grid grid-cols-2 gap-3 md:grid-cols-4 xl:grid-cols-7"
    >
      {cards.map((card) => (
        <Card key={card.id} data-testid={`stat-${card.id}`} className="gap-2 py-4">
          <CardHeader className="px-4">
            <CardTitle className="text-sm font-medium text-muted-foreground">
              {card.label}
            </CardTitle>
          </CardHeader>
          <CardContent className="px-4 text-2xl font-bold tabular-nums">
            {card.value}
            {"note" in card && card.note && (
              <p className="mt-1 text-xs font-normal text-muted-foreground">{card.note}</p>
            )}
          </CardContent>
        </Card>
      ))}
      {stats.isError && (
        <p role="alert" className="col-span-full text-sm text-destructive">
          {stats.error.message}
        </p>
      )}
    </section>
  );
}
