import { useEffect, type RefObject } from "react";
import type { FieldValues, Path, PathValue, UseFormReturn } from "react-hook-form";

/** Browsers fill saved credentials in shortly after load (spec section 9: 100 ms). */
export const AUTOFILL_SYNC_DELAY_MS = 100;

/**
 * Browser autofill may change an input's value without an input event, so the
 * form state would stay empty. 100 ms after mount, copy the DOM values of the
 * named inputs into the form when they differ.
 */
export function useAutofillSync<T extends FieldValues>(
  formRef: RefObject<HTMLFormElement | null>,
  form: UseFormReturn<T>,
  names: readonly Path<T>[],
) {
  const { getValues, setValue } = form;

  useEffect(() => {
    const timer = window.setTimeout(() => {
      const element = formRef.current;
      if (!element) return;
      for (const name of names) {
        const input = element.elements.namedItem(name);
        if (!(input instanceof HTMLInputElement) || input.value === "") continue;
        if (input.value === getValues(name)) continue;
        setValue(name, input.value as PathValue<T, Path<T>>, { shouldDirty: true });
      }
    }, AUTOFILL_SYNC_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [formRef, getValues, setValue, names]);
}
