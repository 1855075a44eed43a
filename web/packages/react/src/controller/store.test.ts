import { describe, expect, it, vi } from "vitest";
import { emptyMessage } from "../state";
import { delta } from "../../test/parts";
import { ChatStore, frameScheduler } from "./store";

/** A store whose flushes the test runs, one "frame" at a time, with a turn under way. */
function streaming() {
  const frames: (() => void)[] = [];
  const store = new ChatStore((flush) => frames.push(flush));
  store.dispatch({ type: "send", message: emptyMessage("u1", "user", "hi") });
  const updates = vi.fn();
  store.subscribe(updates);
  const frame = () => {
    frames.shift()?.();
  };
  return { store, frames, frame, updates };
}

const event = (text: string) => ({ type: "event", event: delta(text), id: null }) as const;

describe("ChatStore", () => {
  it("shows the events of one frame together, in a single update", () => {
    const { store, frames, frame, updates } = streaming();
    for (const word of ["Hel", "lo ", "world"]) store.enqueue(event(word));
    expect(frames).toHaveLength(1);
    expect(store.getState().streamingText).toBe("");
    expect(updates).not.toHaveBeenCalled();
    frame();
    expect(updates).toHaveBeenCalledTimes(1);
    expect(store.getState()).toMatchObject({ status: "streaming", streamingText: "Hello world" });
  });

  it("an action shown at once comes after the events queued before it", () => {
    const { store, updates } = streaming();
    store.enqueue(event("Partial "));
    store.enqueue(event("answer"));
    store.dispatch({ type: "event", event: { type: "cancelled" }, id: null });
    expect(updates).toHaveBeenCalledTimes(1);
    expect(store.getState().messages.at(-1)).toMatchObject({ status: "cancelled", content: "Partial answer" });
  });

  it("a new generation drops the events still queued, and its frame shows nothing", () => {
    const { store, frame, updates } = streaming();
    const before = store.generation;
    store.enqueue(event("stale"));
    store.nextGeneration();
    frame();
    expect(store.generation).not.toBe(before);
    expect(store.getState().streamingText).toBe("");
    expect(updates).not.toHaveBeenCalled();
  });

  it("a listener that unsubscribed is no longer told", () => {
    const store = new ChatStore();
    const listener = vi.fn();
    const unsubscribe = store.subscribe(listener);
    store.dispatch({ type: "append", message: emptyMessage("a1", "action", "Applied action x") });
    unsubscribe();
    store.dispatch({ type: "reset" });
    expect(listener).toHaveBeenCalledTimes(1);
    expect(store.getState().messages).toEqual([]);
  });

  it("without animation frames (a hidden tab gets none), queued events still show", () => {
    vi.useFakeTimers();
    try {
      const store = new ChatStore(frameScheduler);
      store.dispatch({ type: "send", message: emptyMessage("u1", "user", "hi") });
      store.enqueue(event("still here"));
      vi.runAllTimers();
      expect(store.getState().streamingText).toBe("still here");
    } finally {
      vi.useRealTimers();
    }
  });
});
