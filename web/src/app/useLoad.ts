// Loads something for a shell page: its state and a reload (the shape of Horizon's
// horizon/useLoad.ts, which the shell's pages cannot import: the shell sits under the apps).
import { useCallback, useEffect, useState } from "react";

export type Load<T> =
  | { status: "loading"; data: null; error: null }
  | { status: "ready"; data: T; error: null }
  | { status: "error"; data: null; error: Error };

/** Runs `load` (keep it stable: a useCallback) now, whenever it changes, and on `reload`. */
export function useLoad<T>(load: () => Promise<T>): { state: Load<T>; reload: () => void } {
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
  return { state, reload };
}
