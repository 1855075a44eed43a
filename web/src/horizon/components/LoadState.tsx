import { Button, HttpError } from "@pagechat/react";
import type { ReactNode } from "react";
import { Link } from "../../app/router";
import { paths } from "../paths";
import type { Load } from "../../app/useLoad";

export interface LoadStateProps<T> {
  state: Load<T>;
  /** What is loading, for the messages ("streams", "the report"). */
  what: string;
  onRetry?: () => void;
  children: (data: T) => ReactNode;
}

/** Loading, failed (with Retry), gone (a 404: deleted or never there, with a way back),
 * or the loaded content. Retrying a 404 would only fail again. */
export function LoadState<T>({ state, what, onRetry, children }: LoadStateProps<T>) {
  if (state.status === "loading") {
    return (
      <p className="hz-muted" role="status">
        Loading {what}…
      </p>
    );
  }
  if (state.status === "error" && state.error instanceof HttpError && state.error.status === 404) {
    return (
      <div className="hz-empty" role="alert">
        <p>{capitalised(what)} was not found: it may have been deleted, or the link is wrong.</p>
        <Link to={paths.streams()}>Go to your streams</Link>
      </div>
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

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
