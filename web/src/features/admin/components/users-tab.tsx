import { useQuery } from "@tanstack/react-query";
import { ArrowDownIcon, ArrowUpIcon } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { PLAN_IDS, type PlanId } from "@domain/plans";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
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
import { useDebounced } from "../hooks/use-debounced";
import { formatDate } from "../utils/format";
import { BanDialog } from "./ban-dialog";
import { DeleteUserDialog } from "./delete-user-dialog";
import { SubscriptionSwitch } from "./subscription-switch";

type Target = { id: string; email: string };
const ALL = "all";

function SortHeader({
  column,
  label,
  sortBy,
  sortDesc,
  onSort,
}: {
  column: UserSort;
  label: string;
  sortBy: UserSort;
  sortDesc: boolean;
  onSort: (column: UserSort) => void;
}) {
  const active = sortBy === column;
  return (
    <TableHead aria-sort={active ? (sortDesc ? "descending" : "ascending") : "none"}>
      <button
        type="button"
        className="inline-flex items-center gap-1 font-medium hover:text-foreground"
        onClick={() => onSort(column)}
      >
        {label}
        {active &&
          (sortDesc ? (
            <ArrowDownIcon className="size-3" aria-hidden="true" />
          ) : (
            <ArrowUpIcon className="size-3" aria-hidden="true" />
          ))}
      </button>
    </TableHead>
  );
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
  const [search, setSearch] = useState("");
  const [plan, setPlan] = useState<PlanId | typeof ALL>(ALL);
  const [status, setStatus] = useState<"all" | "active" | "banned">(ALL);
  const [subscription, setSubscription] = useState<"all" | "active" | "inactive">(ALL);
  const [sortBy, setSortBy] = useState<UserSort>("created_at");
  const [sortDesc, setSortDesc] = useState(true);
  const [page, setPage] = useState(0);
  const [banTarget, setBanTarget] = useState<Target | null>(null);
  const [deleteTarget, setDeleteTarget] = useState<Target | null>(null);
  const debouncedSearch = useDebounced(search);

  const params: UserListParams = {
    search: debouncedSearch,
    plan: plan === ALL ? null : plan,
    banned: status === ALL ? null : status === "banned",
    subscription: subscription === ALL ? null : subscription === "active",
    sortBy,
    sortDesc,
    page,
  };
  const users = useQuery(adminQueries.users(params));
  const total = users.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / USERS_PAGE_SIZE));

  const onSort = (column: UserSort) => {
    if (column === sortBy) setSortDesc(!sortDesc);
    else {
      setSortBy(column);
      setSortDesc(column !== "email");
    }
    setPage(0);
  };

  return (
    <div className="flex flex-col gap-4">
      <div className="grid gap-2 sm:grid-cols-2 lg:grid-cols-4">
        <Input
          type="search"
          value={search}
          placeholder={t("users.search")}
          aria-label={t("users.search")}
          maxLength={100}
          onChange={(event) => {
            setSearch(event.target.value);
            setPage(0);
          }}
        />
        <Select
          value={plan}
          onValueChange={(value) => {
            setPlan(value as PlanId | typeof ALL);
            setPage(0);
          }}
        >
          <SelectTrigger className="w-full" aria-label={t("users.filterPlan")}>
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value={ALL}>{t("users.allPlans")}</SelectItem>
            {PLAN_IDS.map((id) => (
              <SelectItem key={id} value={id}>
                {t(`plan.${id}`)}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
        <Select
          value={status}
          onValueChange={(value) => {
            setStatus(value as typeof status);
            setPage(0);
          }}
        >
          <SelectTrigger className="w-full" aria-label={t("users.filterStatus")}>
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value={ALL}>{t("users.allStatuses")}</SelectItem>
            <SelectItem value="active">{t("users.statusActive")}</SelectItem>
            <SelectItem value="banned">{t("users.statusBanned")}</SelectItem>
          </SelectContent>
        </Select>
        <Select
          value={subscription}
          onValueChange={(value) => {
            setSubscription(value as typeof subscription);
            setPage(0);
          }}
        >
          <SelectTrigger className="w-full" aria-label={t("users.filterSubscription")}>
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value={ALL}>{t("users.allSubscriptions")}</SelectItem>
            <SelectItem value="active">{t("users.active")}</SelectItem>
            <SelectItem value="inactive">{t("users.inactive")}</SelectItem>
          </SelectContent>
        </Select>
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
              <SortHeader
                column="email"
                label={t("users.email")}
                sortBy={sortBy}
                sortDesc={sortDesc}
                onSort={onSort}
              />
              <SortHeader
                column="plan"
                label={t("users.plan")}
                sortBy={sortBy}
                sortDesc={sortDesc}
                onSort={onSort}
              />
              <TableHead>{t("users.subscription")}</TableHead>
              <TableHead>{t("users.status")}</TableHead>
              <SortHeader
                column="created_at"
                label={t("users.created")}
                sortBy={sortBy}
                sortDesc={sortDesc}
                onSort={onSort}
              />
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

      <div className="flex flex-wrap items-center justify-between gap-2 text-sm text-muted-foreground">
        <span data-testid="users-total">
          {t("users.pageInfo", {
            page: new Intl.NumberFormat(i18n.language).format(Math.min(page + 1, pages)),
            pages: new Intl.NumberFormat(i18n.language).format(pages),
            total: new Intl.NumberFormat(i18n.language).format(total),
          })}
        </span>
        <div className="flex gap-2">
          <Button
            size="sm"
            variant="outline"
            disabled={page === 0}
            onClick={() => setPage(page - 1)}
          >
            {t("users.previous")}
          </Button>
          <Button
            size="sm"
            variant="outline"
            disabled={page + 1 >= pages}
            onClick={() => setPage(page + 1)}
          >
            {t("users.next")}
          </Button>
        </div>
      </div>

      <BanDialog user={banTarget} onOpenChange={(open) => !open && setBanTarget(null)} />
      <DeleteUserDialog
        user={deleteTarget}
        onOpenChange={(open) => !open && setDeleteTarget(null)}
      />
    </div>
  );
}
