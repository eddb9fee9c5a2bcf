import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { Spinner } from "@/components/ui/spinner";
import { communityQueries } from "../api/queries";
import { CreateGroupDialog } from "./create-group-dialog";
import { GroupCard } from "./group-card";

/** /community/groups: Create Group, Your Groups, Public Groups (spec section 2). */
export function GroupsPage() {
  const { t } = useTranslation("community");
  const groups = useQuery(communityQueries.groups());
  const mine = (groups.data ?? []).filter((g) => g.my_role !== null);
  const others = (groups.data ?? []).filter((g) => g.my_role === null && g.is_public);

  return (
    <div className="container mx-auto flex w-full max-w-5xl flex-col gap-8 px-4 py-8">
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div className="flex flex-col gap-1">
          <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{t("groups.title")}</h1>
          <p className="text-muted-foreground">{t("groups.description")}</p>
        </div>
        <CreateGroupDialog />
      </header>

      {groups.isPending ? (
        <div className="flex items-center gap-2 text-muted-foreground">
          <Spinner /> {t("groups.loading")}
        </div>
      ) : groups.isError ? (
        <p className="text-destructive" role="alert">
          {t("groups.loadFailed")}: {groups.error.message}
        </p>
      ) : (
        <>
          <GroupSection
            title={t("groups.yourGroups")}
            empty={t("groups.emptyYours")}
            testId="your-groups"
          >
            {mine.map((g) => (
              <GroupCard key={g.id} group={g} />
            ))}
          </GroupSection>
          <GroupSection
            title={t("groups.publicGroups")}
            empty={t("groups.emptyPublic")}
            testId="public-groups"
          >
            {others.map((g) => (
              <GroupCard key={g.id} group={g} />
            ))}
          </GroupSection>
        </>
      )}
    </div>
  );
}

function GroupSection({
  title,
  empty,
  testId,
  children,
}: {
  title: string;
  empty: string;
  testId: string;
  children: React.ReactNode[];
}) {
  return (
    <section className="flex flex-col gap-3" aria-label={title} data-testid={testId}>
      <h2 className="text-lg font-semibold">{title}</h2>
      {children.length === 0 ? (
        <p className="text-sm text-muted-foreground">{empty}</p>
      ) : (
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">{children}</div>
      )}
    </section>
  );
}
