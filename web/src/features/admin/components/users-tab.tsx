import { useQuery } from "@tanstack/react-query";
import { lazy, Suspense, useMemo, useState } from "react";
import { ExportMenu } from "@/components/export-menu";
import { readEnum, readNumber, readText } from "@/lib/url-state";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { PLAN_IDS, type PlanId } from "@domain/plans";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from "@/components/ui/select";
import { Spinner } from "@/components/ui/spinner";
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from "@/components/ui/table";
import {
  adminQueries,
  type AdminUserRow,
  USERS_PAGE_SIZE,
  type UserListParams,
  type UserSort,
} from "../api/queries";
import { adminUserActions, useAdminAction } from "../api/user-actions";
import { useTableView } from "../hooks/use-table-view";
import { ALL } from "../utils/client-table";
import { userExportColumns } from "../utils/export-columns";
import { formatDate } from "../utils/format";
import { SortHeader } from "./sort-header";
import { SubscriptionSwitch } from "./subscription-switch";
import { FilterSelect, SearchField } from "./table-filters";
import { TablePager } from "./table-pager";

// The confirmation dialogs load when an admin first asks for one.
const BanDialog = lazy(() => import("./ban-dialog").then((m) => ({ default: m.BanDialog })));
const DeleteUserDialog = lazy(() =>
  import("./delete-user-dialog").then((m) => ({ default: m.DeleteUserDialog })),
);

type Target = { id: string; email: string };

const USER_SORTS: readonly UserSort[] = ["email", "plan", "created_at", "last_activity_at"];
const USER_KEYS = { search: "q", sort: "sort", order: "order", page: "page" };
/** Every column but the e-mail starts newest or highest first. */
const notEmailFirst = (column: UserSort) => column !== "email";

/** The users table's view in the address (decision 0045); defaults stay out of it. */
export const USER_URL_DEFAULTS = {
  q: "",
  plan: ALL,
  status: ALL,
  sub: ALL,
  sort: "created_at",
  order: "desc",
  page: 1,
} as const;

export type UsersView = {
  search: string;
  plan: PlanId | typeof ALL;
  status: "all" | "active" | "banned";
  subscription: "all" | "active" | "inactive";
  sortBy: UserSort;
  sortDesc: boolean;
  /** 0-based; the address counts from 1. */
  page: number;
};

/** The view an address names; each invalid value reads as its default. */
export function parseUsersView(params: Pick<URLSearchParams, "get">): UsersView {
  return {
    search: readText(params, "q", 100),
    plan: readEnum(params, "plan", [ALL, ...PLAN_IDS], ALL),
    status: readEnum(params, "status", [ALL, "active", "banned"] as const, ALL),
    subscription: readEnum(params, "sub", [ALL, "active", "inactive"] as const, ALL),
    sortBy: readEnum(params, "sort", USER_SORTS, "created_at"),
    sortDesc: readEnum(params, "order", ["asc", "desc"] as const, "desc") === "desc",
    page: readNumber(params, "page", { min: 1, max: 100_000, integer: true }, 1) - 1,
  };
}

function UserRow({
  row,
  onBan,
  onDelete,
}: {
  row: AdminUserRow;
  onBan: (target: Target) => void;
  onDelete: (target: Target) => void;
}) {
  const { t, i18n } = useTranslation("admin");
  const setPlan = useAdminAction(adminUserActions.setPlan);
  const setSubscription = useAdminAction(adminUserActions.setSubscription);
  const unban = useAdminAction(adminUserActions.unban);
  const id = row.id ?? "";
  const email = row.email ?? "";
  const isAdmin = row.role === "admin";
  const banned = row.banned === true;
  const onError = (error: Error) => toast.error(t("toast.error"), { description: error.message });

  return (
    <TableRow data-testid="admin-user-row" data-email={email}>
      <TableCell className="max-w-[16rem]">
        <div className="flex flex-wrap items-center gap-1.5">
          <span className="truncate font-medium" title={email}>
            {email}
          </span>
          {isAdmin && <Badge variant="destructive">{t("badge.admin")}</Badge>}
          {banned && (
            <Badge variant="outline" className="border-destructive text-destructive">
              {t("badge.banned")}
            </Badge>
          )}
        </div>
        {row.username && <div className="text-xs text-muted-foreground">@{row.username}</div>}
      </TableCell>
      <TableCell>
        <Select
          value={row.plan ?? "none"}
          disabled={banned || setPlan.isPending}
          onValueChange={(plan) =>
            setPlan.mutate(
              { userId: id, plan: plan as PlanId },
              { onSuccess: () => toast.success(t("toast.planUpdated")), onError },
            )
          }
        >
          <SelectTrigger className="h-8 w-32" aria-label={t("users.planFor", { email })}>
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {PLAN_IDS.map((plan) => (
              <SelectItem key={plan} value={plan}>
                {t(`plan.${plan}`)}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </TableCell>
      <TableCell>
        <div className="flex items-center gap-2">
          <SubscriptionSwitch
            checked={row.subscription_active === true}
            disabled={banned || setSubscription.isPending}
            label={t("users.subscriptionFor", { email })}
            onCheckedChange={(active) =>
              setSubscription.mutate(
                { userId: id, subscriptionActive: active },
                { onSuccess: () => toast.success(t("toast.subscriptionUpdated")), onError },
              )
            }
          />
          <span className="text-sm">
            {row.subscription_active ? t("users.active") : t("users.inactive")}
          </span>
        </div>
      </TableCell>
      <TableCell>
        {banned ? (
          <span className="text-sm text-destructive" title={row.banned_reason ?? undefined}>
            {t("users.statusBanned")}
          </span>
        ) : (
          <span className="text-sm">{t("users.statusActive")}</span>
        )}
      </TableCell>
      <TableCell className="text-sm whitespace-nowrap">
        {formatDate(row.created_at, i18n.language)}
      </TableCell>
      <TableCell>
        <div className="flex flex-wrap gap-1.5">
          {banned ? (
            <Button
              size="sm"
              variant="outline"
              disabled={unban.isPending}
              onClick={() =>
                unban.mutate(
                  { userId: id },
                  { onSuccess: () => toast.success(t("toast.userUnbanned")), onError },
                )
              }
            >
              {t("actions.unban")}
            </Button>
          ) : (
            <Button
              size="sm"
              variant="outline"
              disabled={isAdmin}
              onClick={() => onBan({ id, email })}
            >
              {t("actions.ban")}
            </Button>
          )}
          <Button
            size="sm"
            variant="destructive"
            disabled={isAdmin}
            onClick={() => onDelete({ id, email })}
          >
            {t("actions.delete")}
          </Button>
        </div>
      </TableCell>
    </TableRow>
  );
}

/** User Management: server-side search, filters, sorting and pages of 25. */
export function UsersTab() {
  const { t, i18n } = useTranslation("admin");
  const { view, setView, searchDraft, setSearchDraft, sortProps, onPage } = useTableView({
    defaults: USER_URL_DEFAULTS,
    keys: USER_KEYS,
    parse: parseUsersView,
    descendingFirst: notEmailFirst,
  });
  const { search, plan, status, subscription, sortBy, sortDesc, page } = view;
  const [banTarget, setBanTarget] = useState<Target | null>(null);
  const [deleteTarget, setDeleteTarget] = useState<Target | null>(null);

  const params: UserListParams = {
    search,
    plan: plan === ALL ? null : plan,
    banned: status === ALL ? null : status === "banned",
    subscription: subscription === ALL ? null : subscription === "active",
    sortBy,
    sortDesc,
    page,
  };
  const users = useQuery(adminQueries.users(params));
  const exportColumns = useMemo(() => userExportColumns(t, i18n.language), [t, i18n.language]);
  const total = users.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / USERS_PAGE_SIZE));

  return (
    <div className="flex flex-col gap-4">
      <div className="grid gap-2 sm:grid-cols-2 lg:grid-cols-4">
        <SearchField value={searchDraft} label={t("users.search")} onChange={setSearchDraft} />
        <FilterSelect
          value={plan}
          label={t("users.filterPlan")}
          allLabel={t("users.allPlans")}
          options={PLAN_IDS.map((id) => ({ value: id, label: t(`plan.${id}`) }))}
          onChange={(value) => setView({ plan: value })}
        />
        <FilterSelect
          value={status}
          label={t("users.filterStatus")}
          allLabel={t("users.allStatuses")}
          options={[
            { value: "active", label: t("users.statusActive") },
            { value: "banned", label: t("users.statusBanned") },
          ]}
          onChange={(value) => setView({ status: value })}
        />
        <FilterSelect
          value={subscription}
          label={t("users.filterSubscription")}
          allLabel={t("users.allSubscriptions")}
          options={[
            { value: "active", label: t("users.active") },
            { value: "inactive", label: t("users.inactive") },
          ]}
          onChange={(value) => setView({ sub: value })}
        />
      </div>

      {users.isError && (
        <p role="alert" className="text-sm text-destructive">
          {users.error.message}
        </p>
      )}

      <div className="overflow-x-auto rounded-md border">
        <Table>
          <TableHeader>
            <TableRow>
              <SortHeader column="email" label={t("users.email")} {...sortProps} />
              <SortHeader column="plan" label={t("users.plan")} {...sortProps} />
              <TableHead>{t("users.subscription")}</TableHead>
              <TableHead>{t("users.status")}</TableHead>
              <SortHeader column="created_at" label={t("users.created")} {...sortProps} />
              <TableHead>{t("users.actions")}</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {users.isPending ? (
              <TableRow>
                <TableCell colSpan={6} className="py-8 text-center">
                  <Spinner label={t("loading")} className="mx-auto size-5" />
                </TableCell>
              </TableRow>
            ) : users.data?.rows.length === 0 ? (
              <TableRow>
                <TableCell colSpan={6} className="py-8 text-center text-muted-foreground">
                  {t("users.empty")}
                </TableCell>
              </TableRow>
            ) : (
              users.data?.rows.map((row) => (
                <UserRow key={row.id} row={row} onBan={setBanTarget} onDelete={setDeleteTarget} />
              ))
            )}
          </TableBody>
        </Table>
      </div>

      <TablePager page={page} pages={pages} total={total} onPage={onPage} testId="users-total">
        {/* The page on screen, as the table shows it (filters, sort and page included). */}
        <ExportMenu
          baseName="users"
          columns={exportColumns}
          rows={users.data?.rows ?? []}
          label={t("users.export")}
        />
      </TablePager>

      {banTarget ? (
        <Suspense fallback={null}>
          <BanDialog user={banTarget} onOpenChange={(open) => !open && setBanTarget(null)} />
        </Suspense>
      ) : null}
      {deleteTarget ? (
        <Suspense fallback={null}>
          <DeleteUserDialog
            user={deleteTarget}
            onOpenChange={(open) => !open && setDeleteTarget(null)}
          />
        </Suspense>
      ) : null}
    </div>
  );
}
