import { ArrowDownIcon, ArrowUpIcon } from "lucide-react";
import { TableHead } from "@/components/ui/table";

/** A column header that sorts by its column; a second click turns the order round. */
export function SortHeader<C extends string>({
  column,
  label,
  sortBy,
  sortDesc,
  onSort,
  className,
}: {
  column: C;
  label: string;
  sortBy: C;
  sortDesc: boolean;
  onSort: (column: C) => void;
  className?: string;
}) {
  const active = sortBy === column;
  return (
    <TableHead
      aria-sort={active ? (sortDesc ? "descending" : "ascending") : "none"}
      className={className}
    >
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
