import { render, fireEvent } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { createShortcutHandler, isTypingTarget, SEQUENCE_MS, useShortcuts } from "./use-shortcuts";

function press(key: string, init: KeyboardEventInit = {}, target: EventTarget = document.body) {
  const event = new KeyboardEvent("keydown", { key, bubbles: true, cancelable: true, ...init });
  target.dispatchEvent(event);
  return event;
}

function Harness({
  shortcuts,
  enabled,
}: {
  shortcuts: Record<string, () => void>;
  enabled?: boolean;
}) {
  useShortcuts(shortcuts, enabled);
  return (
    <div>
      <input aria-label="field" />
      <textarea aria-label="notes" />
      <select aria-label="choice">
        <option>one</option>
      </select>
      <div contentEditable suppressContentEditableWarning aria-label="editor">
        text
      </div>
      <button type="button">Action</button>
      <div role="dialog" aria-label="open dialog">
        <button type="button">Inside</button>
      </div>
    </div>
  );
}

describe("useShortcuts", () => {
  it("runs the key's action and takes the key from the page", () => {
    const j = vi.fn();
    const slash = vi.fn();
    render(<Harness shortcuts={{ j, "/": slash }} />);
    const event = press("j");
    expect(j).toHaveBeenCalledTimes(1);
    expect(event.defaultPrevented).toBe(true);
    press("/");
    expect(slash).toHaveBeenCalledTimes(1);
    // A key without a shortcut is left alone.
    expect(press("x").defaultPrevented).toBe(false);
  });

  it("does not fire while typing in an input, a textarea, a select or an editable element", () => {
    const j = vi.fn();
    const { getByLabelText } = render(<Harness shortcuts={{ j }} />);
    for (const label of ["field", "notes", "choice", "editor"]) {
      const event = press("j", {}, getByLabelText(label));
      expect(event.defaultPrevented, label).toBe(false);
    }
    expect(j).not.toHaveBeenCalled();
  });

  it("does not fire with Ctrl, Meta or Alt held, nor inside an open dialog", () => {
    const k = vi.fn();
    const { getByRole } = render(<Harness shortcuts={{ k }} />);
    press("k", { ctrlKey: true });
    press("k", { metaKey: true });
    press("k", { altKey: true });
    press("k", {}, getByRole("button", { name: "Inside" }));
    expect(k).not.toHaveBeenCalled();
    press("k", { shiftKey: false });
    expect(k).toHaveBeenCalledTimes(1);
  });

  it("leaves Enter to a focused button or link", () => {
    const enter = vi.fn();
    const { getByRole } = render(<Harness shortcuts={{ Enter: enter }} />);
    press("Enter", {}, getByRole("button", { name: "Action" }));
    expect(enter).not.toHaveBeenCalled();
    press("Enter");
    expect(enter).toHaveBeenCalledTimes(1);
  });

  it("does nothing once unmounted or while disabled", () => {
    const j = vi.fn();
    const { unmount } = render(<Harness shortcuts={{ j }} enabled={false} />);
    press("j");
    unmount();
    press("j");
    expect(j).not.toHaveBeenCalled();
  });

  it("listens from mount to unmount, enabled or not: one listener, whose keys follow `enabled`", () => {
    // Not a listener added when `enabled` turns true: React 19 can skip that effect (see the hook).
    const added = vi.spyOn(document, "addEventListener");
    const removed = vi.spyOn(document, "removeEventListener");
    try {
      const j = vi.fn();
      const { rerender, unmount } = render(<Harness shortcuts={{ j }} enabled={false} />);
      expect(press("j").defaultPrevented).toBe(false);
      rerender(<Harness shortcuts={{ j }} enabled />);
      expect(press("j").defaultPrevented).toBe(true);
      rerender(<Harness shortcuts={{ j }} enabled={false} />);
      expect(press("j").defaultPrevented).toBe(false);
      expect(j).toHaveBeenCalledTimes(1);
      const keydown = (spy: typeof added) => spy.mock.calls.filter(([type]) => type === "keydown");
      expect(keydown(added)).toHaveLength(1);
      expect(keydown(removed)).toHaveLength(0);
      unmount();
      expect(keydown(removed)).toHaveLength(1);
      expect(keydown(removed)[0]![1]).toBe(keydown(added)[0]![1]);
    } finally {
      added.mockRestore();
      removed.mockRestore();
    }
  });

  it("uses the latest actions without re-subscribing", () => {
    const first = vi.fn();
    const second = vi.fn();
    const { rerender } = render(<Harness shortcuts={{ a: first }} />);
    rerender(<Harness shortcuts={{ a: second }} />);
    fireEvent.keyDown(document.body, { key: "a" });
    expect(first).not.toHaveBeenCalled();
    expect(second).toHaveBeenCalledTimes(1);
  });
});

describe("createShortcutHandler sequences", () => {
  const keydown = (key: string) =>
    new KeyboardEvent("keydown", { key, bubbles: true, cancelable: true });

  it("runs a two-key sequence when the second key follows in time", () => {
    let time = 0;
    const goDashboard = vi.fn();
    const goCharts = vi.fn();
    const handle = createShortcutHandler(
      () => ({ "g d": goDashboard, "g c": goCharts }),
      () => time,
    );
    handle(keydown("g"));
    time += 200;
    handle(keydown("d"));
    expect(goDashboard).toHaveBeenCalledTimes(1);

    // Too late: the second key is a key of its own.
    handle(keydown("g"));
    time += SEQUENCE_MS + 1;
    handle(keydown("c"));
    expect(goCharts).not.toHaveBeenCalled();

    // "d" alone is not "g d".
    handle(keydown("d"));
    expect(goDashboard).toHaveBeenCalledTimes(1);
  });

  it("a modifier in between cancels the sequence", () => {
    const go = vi.fn();
    const handle = createShortcutHandler(() => ({ "g s": go }));
    handle(keydown("g"));
    handle(new KeyboardEvent("keydown", { key: "s", ctrlKey: true }));
    handle(keydown("s"));
    expect(go).not.toHaveBeenCalled();
  });
});

describe("isTypingTarget", () => {
  it("knows text fields from other elements", () => {
    const input = document.createElement("input");
    const div = document.createElement("div");
    const combobox = document.createElement("div");
    combobox.setAttribute("role", "combobox");
    expect(isTypingTarget(input)).toBe(true);
    expect(isTypingTarget(combobox)).toBe(true);
    expect(isTypingTarget(div)).toBe(false);
    expect(isTypingTarget(null)).toBe(false);
  });
});
