import { useTranslation } from "react-i18next";
import { MultiSelect, type MultiSelectOption } from "@/components/multi-select";
import { Button } from "@/components/ui/button";

/** Up to this many options show as buttons; more as a searchable multi-select. */
export const MAX_BUTTON_OPTIONS = 2;

type OptionFilterProps = {
  label: string;
  options: readonly MultiSelectOption[];
  /** Selected values; empty means all. */
  selected: readonly string[];
  onChange: (values: string[]) => void;
};

/**
 * One of the source / network / DEX filters: "All" plus a button per option when there are two
 * or fewer, otherwise a dropdown reading "All" or "N selected". Selected values the list no
 * longer holds stay offered, so they can be cleared.
 */
export function OptionFilter({ label, options, selected, onChange }: OptionFilterProps) {
  const { t } = useTranslation("dashboard");
  const offered = [
    ...options,
    ...selected
      .filter((value) => !options.some((option) => option.value === value))
      .map((value) => ({ value, label: value })),
  ];
  if (offered.length === 0) return null;

  return (
    <div className="flex flex-col gap-1.5">
      <span className="text-sm font-medium" aria-hidden="true">
        {label}
      </span>
      {offered.length <= MAX_BUTTON_OPTIONS ? (
        <div role="group" aria-label={label} className="flex flex-wrap gap-1">
          <Button
            type="button"
            size="sm"
            variant={selected.length === 0 ? "default" : "outline"}
            aria-pressed={selected.length === 0}
            onClick={() => onChange([])}
          >
            {t("filters.all")}
          </Button>
          {offered.map((option) => {
            const active = selected.includes(option.value);
            return (
              <Button
                key={option.value}
                type="button"
                size="sm"
                variant={active ? "default" : "outline"}
                aria-pressed={active}
                onClick={() =>
                  onChange(
                    active
                      ? selected.filter((value) => value !== option.value)
                      : [...selected, option.value],
                  )
                }
              >
                {option.label}
              </Button>
            );
          })}
        </div>
      ) : (
        <MultiSelect
          label={label}
          options={offered}
          selected={selected}
          onChange={onChange}
          texts={{
            empty: t("filters.all"),
            selected: (count) => t("filters.selected", { count }),
            search: t("filters.search"),
            noOptions: t("filters.noOptions"),
            clear: t("filters.clear"),
          }}
        />
      )}
    </div>
  );
}
