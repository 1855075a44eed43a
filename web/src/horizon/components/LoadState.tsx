import { Button } from "@pagechat/react";
import type { ReactNode } from "react";
import type { Load } from "../useLoad";

export interface LoadStateProps<T> {
  state: Load<T>;
  /** What is loading, for the messages ("streams", "the report"). */
  what: string;
  onRetry?: () => void;
  children: (data: T) => ReactNode;
}

/** Loading, failed (with Retry), or the loaded content. */
export function LoadState<T>({ state, what, onRetry, children }: LoadStateProps<T>) {
  if (state.status === "loading") {
    return (
      <p className="hz-muted" role="status">
        Loading {what}…
      </p>
    );
  }
  if (state.status === "error") {
    return (
      <div className="hz-error" role="alert">
        <p>
          Could not load {what}: {state.error.message}
        </p>
        {onRetry && (
          <Button variant="secondary" onClick={onRetry}>
            Retry
          </Button>
        )}
      </div>
    );
  }
  return <>{children(state.data)}</>;
}
