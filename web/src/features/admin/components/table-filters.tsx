import { Input } from "@/components/ui/input";
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from "@/components/ui/select";
import { ALL } from "../utils/client-table";

/** An admin table's search box: the label is its placeholder and accessible name. */
export function SearchField({
  value,
  label,
  onChange,
}: {
  value: string;
  label: string;
  onChange: (value: string) => void;
}) {
  return (
    <Input
      type="search"
      value={value}
      maxLength={100}
      placeholder={label}
      aria-label={label}
      onChange={(event) => onChange(event.target.value)}
    />
  );
}

/** A filter of an admin table: "all" first, then its options. */
export function FilterSelect({
  value,
  label,
  allLabel,
  options,
  onChange,
}: {
  value: string;
  /** The accessible name of the trigger. */
  label: string;
  allLabel: string;
  options: readonly { value: string; label: string }[];
  onChange: (value: string) => void;
}) {
  return (
    <Select value={value} onValueChange={onChange}>
      <SelectTrigger className="w-full" aria-label={label}>
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        <SelectItem value={ALL}>{allLabel}</SelectItem>
        {options.map((option) => (
          <SelectItem key={option.value} value={option.value}>
            {option.label}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
