type StaleMarkProps = {
  /** The word shown ("stale"). */
  label: string;
  /** Why, for assistive technology and on hover. */
  hint: string;
};

/** Marks a row whose quote is older than its window, in words (never colour alone). */
export function StaleMark({ label, hint }: StaleMarkProps) {
  return (
    <span
      className="ml-2 rounded-sm border border-amber-500/60 px-1 text-[0.7rem] text-amber-700 uppercase dark:text-amber-400"
      title={hint}
    >
      {label}
      <span className="sr-only">: {hint}</span>
    </span>
  );
}
