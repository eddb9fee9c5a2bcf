import { CheckIcon, ChevronDownIcon, SearchIcon } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { cn } from "@/lib/utils";

export type MultiSelectOption = { value: string; label: string };

type MultiSelectProps = {
  /** What is chosen (accessible name of the trigger and the list). */
  label: string;
  options: readonly MultiSelectOption[];
  /** Selected values; an empty list reads as `emptyText`. */
  selected: readonly string[];
  onChange: (values: string[]) => void;
  texts: {
    /** Trigger text with nothing selected ("All", "None"). */
    empty: string;
    /** Trigger text with a selection ("2 selected"). */
    selected: (count: number) => string;
    search: string;
    noOptions: string;
    clear: string;
  };
  className?: string;
};

/**
 * A searchable multi-select: a button that opens a small panel with a search field and a
 * checkbox per option. Escape or a click outside closes it and returns focus to the button.
 * No portal and no positioning library: the panel hangs below the button.
 */
export function MultiSelect({
  label,
  options,
  selected,
  onChange,
  texts,
  className,
}: MultiSelectProps) {
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState("");
  const rootRef = useRef<HTMLDivElement>(null);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const panelId = useId();

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener("pointerdown", onPointerDown);
    return () => document.removeEventListener("pointerdown", onPointerDown);
  }, [open]);

  const close = () => {
    setOpen(false);
    setQuery("");
    triggerRef.current?.focus();
  };

  const needle = query.trim().toLocaleLowerCase();
  const visible = needle
    ? options.filter((option) => option.label.toLocaleLowerCase().includes(needle))
    : options;
  const summary = selected.length === 0 ? texts.empty : texts.selected(selected.length);

  const toggle = (value: string) =>
    onChange(selected.includes(value) ? selected.filter((v) => v !== value) : [...selected, value]);

  return (
    <div
      ref={rootRef}
      className={cn("relative", className)}
      onKeyDown={(event) => {
        if (event.key === "Escape" && open) {
          event.stopPropagation();
          close();
        }
      }}
    >
      <Button
        ref={triggerRef}
        type="button"
        variant="outline"
        aria-label={`${label}: ${summary}`}
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={() => (open ? close() : setOpen(true))}
        className="w-full justify-between sm:w-48"
      >
        <span className="truncate">{summary}</span>
        <ChevronDownIcon aria-hidden="true" className="opacity-60" />
      </Button>
      {open && (
        <div
          id={panelId}
          role="dialog"
          aria-label={label}
          className="absolute z-30 mt-1 flex w-64 max-w-[calc(100vw-2rem)] flex-col gap-2 rounded-md border bg-popover p-2 text-popover-foreground shadow-md"
        >
          <div className="relative">
            <SearchIcon
              aria-hidden="true"
              className="pointer-events-none absolute top-1/2 left-2 size-4 -translate-y-1/2 text-muted-foreground"
            />
            <Input
              autoFocus
              type="search"
              value={query}
              onChange={(event) => setQuery(event.target.value)}
              placeholder={texts.search}
              aria-label={texts.search}
              className="pl-8"
            />
          </div>
          <ul role="group" aria-label={label} className="max-h-60 overflow-y-auto">
            {visible.length === 0 ? (
              <li className="px-2 py-1.5 text-sm text-muted-foreground">{texts.noOptions}</li>
            ) : (
              visible.map((option) => {
                const checked = selected.includes(option.value);
                return (
                  <li key={option.value}>
                    <label className="flex cursor-pointer items-center gap-2 rounded-sm px-2 py-1.5 text-sm hover:bg-accent hover:text-accent-foreground has-focus-visible:bg-accent">
                      <input
                        type="checkbox"
                        checked={checked}
                        onChange={() => toggle(option.value)}
                        className="peer sr-only"
                      />
                      <span
                        aria-hidden="true"
                        className={cn(
                          "flex size-4 shrink-0 items-center justify-center rounded-[4px] border border-input peer-focus-visible:ring-[3px] peer-focus-visible:ring-ring/50",
                          checked && "border-primary bg-primary text-primary-foreground",
                        )}
                      >
                        {checked && <CheckIcon className="size-3" />}
                      </span>
                      <span className="truncate">{option.label}</span>
                    </label>
                  </li>
                );
              })
            )}
          </ul>
          {selected.length > 0 && (
            <Button type="button" variant="ghost" size="sm" onClick={() => onChange([])}>
              {texts.clear}
            </Button>
          )}
        </div>
      )}
    </div>
  );
}
