import { Fragment } from "react";
import { useTranslation } from "react-i18next";
import type { ParseKeys } from "i18next";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from "@/components/ui/dialog";

type Action = ParseKeys<"dashboard"> & `shortcuts.actions.${string}`;
/** A shortcut: alternatives (`or`), each one key or a sequence of keys (`then`). */
type Row = { keys: readonly (readonly string[])[]; action: Action };

const EVERYWHERE: readonly Row[] = [
  { keys: [["g", "d"]], action: "shortcuts.actions.goDashboard" },
  { keys: [["g", "c"]], action: "shortcuts.actions.goCharts" },
  { keys: [["g", "s"]], action: "shortcuts.actions.goSupport" },
  { keys: [["?"]], action: "shortcuts.actions.help" },
];

const ON_DASHBOARD: readonly Row[] = [
  { keys: [["1"], ["2"], ["3"], ["4"], ["5"], ["6"], ["7"]], action: "shortcuts.actions.window" },
  { keys: [["/"]], action: "shortcuts.actions.minPercent" },
  { keys: [["j"]], action: "shortcuts.actions.nextRow" },
  { keys: [["k"]], action: "shortcuts.actions.previousRow" },
  { keys: [["Enter"], ["a"]], action: "shortcuts.actions.openAnalysis" },
];

function Keys({ keys }: { keys: Row["keys"] }) {
  const { t } = useTranslation("dashboard");
  const window = keys.length > 2;
  return (
    <span className="flex flex-wrap items-center gap-1">
      {window ? (
        <>
          <kbd className="rounded border bg-muted px-1.5 py-0.5 font-mono text-xs">{keys[0]}</kbd>
          <span aria-hidden="true">–</span>
          <kbd className="rounded border bg-muted px-1.5 py-0.5 font-mono text-xs">
            {keys.at(-1)}
          </kbd>
        </>
      ) : (
        keys.map((sequence, i) => (
          <Fragment key={sequence.join(" ")}>
            {i > 0 && <span className="text-xs text-muted-foreground">{t("shortcuts.or")}</span>}
            {sequence.map((key, j) => (
              <Fragment key={key}>
                {j > 0 && (
                  <span className="text-xs text-muted-foreground">{t("shortcuts.then")}</span>
                )}
                <kbd className="rounded border bg-muted px-1.5 py-0.5 font-mono text-xs">{key}</kbd>
              </Fragment>
            ))}
          </Fragment>
        ))
      )}
    </span>
  );
}

function Group({ title, rows }: { title: string; rows: readonly Row[] }) {
  const { t } = useTranslation("dashboard");
  return (
    <section className="flex flex-col gap-2">
      <h3 className="text-sm font-semibold">{title}</h3>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
        {rows.map((row) => (
          <Fragment key={row.action}>
            <dt>
              <Keys keys={row.keys} />
            </dt>
            <dd>{t(row.action)}</dd>
          </Fragment>
        ))}
      </dl>
    </section>
  );
}

/** The `?` overlay: every keyboard shortcut in the reader's language (loaded when first opened). */
export function ShortcutsHelp({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { t } = useTranslation("dashboard");
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent closeLabel={t("shortcuts.close")}>
        <DialogHeader>
          <DialogTitle>{t("shortcuts.title")}</DialogTitle>
          <DialogDescription>{t("shortcuts.description")}</DialogDescription>
        </DialogHeader>
        <Group title={t("shortcuts.everywhere")} rows={EVERYWHERE} />
        <Group title={t("shortcuts.onDashboard")} rows={ON_DASHBOARD} />
      </DialogContent>
    </Dialog>
  );
}
