// Loads something for a page of the shell or an app: its state, a reload, and a setter for local changes.
import { useCallback, useEffect, useState } from "react";

export type Load<T> =
  | { status: "loading"; data: null; error: null }
  | { status: "ready"; data: T; error: null }
  | { status: "error"; data: null; error: Error };

export interface UseLoad<T> {
  state: Load<T>;
  reload: () => void;
  /** Changes the loaded value in place (after a save answered part of it). */
  update: (change: (data: T) => T) => void;
}

/** Runs `load` (keep it stable: a useCallback) now and whenever it changes. */
export function useLoad<T>(load: () => Promise<T>): UseLoad<T> {
  const [state, setState] = useState<Load<T>>({ status: "loading", data: null, error: null });
  const [round, setRound] = useState(0);
  useEffect(() => {
    let live = true;
    load().then(
      (data) => {
        if (live) setState({ status: "ready", data, error: null });
      },
      (error: unknown) => {
        if (live) setState({ status: "error", data: null, error: error instanceof Error ? error : new Error(String(error)) });
      },
    );
    return () => {
      live = false;
    };
  }, [load, round]);
  const reload = useCallback(() => {
    setRound((r) => r + 1);
  }, []);
  const update = useCallback((change: (data: T) => T) => {
    setState((s) => (s.status === "ready" ? { status: "ready", data: change(s.data), error: null } : s));
  }, []);
  return { state, reload, update };
}
