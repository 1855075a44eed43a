// Following one run's stream into the store, and stopping it. Events are queued for the
// store's next flush; what starts or ends the turn is shown at once. One stream at a time:
// following another aborts the one before (the run itself goes on on the server).
import { HttpError, StreamDroppedError, UnauthorizedError, type ChatApi, type StreamItem } from "../api";
import { isBusy, type ChatAction, type ChatState } from "../state";
import type { ChatStore } from "./store";
import { announceChanges } from "../changes";

/** Opens a stream of a run; the signal aborts it. */
export type Open = (signal: AbortSignal) => AsyncGenerator<StreamItem>;

/** The abort reason of a Stop that could not reach the server. */
const LOCAL_STOP = new DOMException("stopped", "AbortError");

export interface RunStreamOptions {
  store: ChatStore;
  api: ChatApi;
  /** After Stop, how long to wait for the server's `cancelled` before stopping locally. */
  stopTimeoutMs: number;
}

/** The stream of the run being shown, and Stop for it. */
export class RunStream {
  private readonly store: ChatStore;
  private readonly api: ChatApi;
  private readonly stopTimeoutMs: number;
  private stream: AbortController | null = null;
  private stopRequested = false;
  private stopTimer: ReturnType<typeof setTimeout> | undefined;

  constructor({ store, api, stopTimeoutMs }: RunStreamOptions) {
    this.store = store;
    this.api = api;
    this.stopTimeoutMs = stopTimeoutMs;
  }

  /** Shows a turn starting (`action`: a send, a resume, a branch) and follows its stream. */
  start(action: ChatAction, open: Open): Promise<void> {
    this.stopRequested = false;
    this.store.dispatch(action);
    return this.follow(open);
  }

  /** Stops the running answer: the server cancels the run and the stream ends with `cancelled`. */
  stop = async (): Promise<void> => {
    const state = this.store.getState();
    if (!isBusy(state.status)) {
      // A connection that could not be resumed: give up on it and keep the partial answer.
      if (state.error?.retry === "resume") this.store.dispatch({ type: "stopped_locally" });
      return;
    }
    if (this.stopRequested) return;
    this.stopRequested = true;
    this.stopTimer = setTimeout(() => {
      this.stopLocally();
    }, this.stopTimeoutMs);
    // Without a run id yet, the cancel goes out as soon as the stream names its run.
    if (state.runId !== null) await this.requestCancel(state.runId);
  };

  /** Stops following the stream (the run goes on on the server) and forgets a pending Stop. */
  detach(): void {
    this.stream?.abort();
    this.stream = null;
    this.stopRequested = false;
    clearTimeout(this.stopTimer);
  }

  /** Reads the stream `open` starts into the store until it ends, fails or is left. */
  async follow(open: Open): Promise<void> {
    this.stream?.abort();
    const abort = new AbortController();
    this.stream = abort;
    const generation = this.store.generation;
    let started = this.store.getState().runId !== null;
    try {
      for await (const item of open(abort.signal)) {
        if (generation !== this.store.generation) return;
        if (item.kind === "run") started = true;
        this.take(item);
      }
      this.store.flush();
    } catch (error) {
      if (generation !== this.store.generation) return;
      this.store.flush();
      if (abort.signal.aborted) {
        if (abort.signal.reason === LOCAL_STOP) this.store.dispatch({ type: "stopped_locally" });
        return;
      }
      this.store.dispatch(streamFailure(error, started, this.store.getState()));
    } finally {
      if (this.stream === abort) this.stream = null;
      if (generation === this.store.generation) {
        clearTimeout(this.stopTimer);
        this.stopRequested = false;
      }
    }
  }

  private take(item: StreamItem): void {
    if (item.kind === "run") {
      this.store.dispatch({ type: "run_started", runId: item.runId, conversationId: item.conversationId });
      if (this.stopRequested) void this.requestCancel(item.runId);
    } else if (item.kind === "event") {
      this.store.enqueue({ type: "event", event: item.event, id: item.id });
      if (item.event.type === "tool_complete" && item.event.changes) announceChanges(item.event.changes);
    } else {
      this.store.enqueue({ type: "reconnecting" });
    }
  }

  private async requestCancel(runId: string): Promise<void> {
    try {
      await this.api.cancelRun(runId);
    } catch {
      this.stopLocally();
    }
  }

  private stopLocally(): void {
    if (this.stream !== null) {
      this.stream.abort(LOCAL_STOP);
    } else if (isBusy(this.store.getState().status)) {
      this.store.dispatch({ type: "stopped_locally" });
    }
  }
}

/**
 * What a stream's failure shows: whether Retry resumes the run or sends the message again
 * (`started`: the server had named the run before the failure).
 */
export function streamFailure(error: unknown, started: boolean, state: ChatState): ChatAction {
  if (error instanceof UnauthorizedError) {
    return { type: "request_failed", message: error.message, retry: "none" };
  }
  if (error instanceof StreamDroppedError) {
    return { type: "connection_failed", message: "The connection to the server was lost.", canResume: error.runId !== null };
  }
  if (!started) {
    const message = error instanceof HttpError ? error.message : "Could not reach the server. Check your connection.";
    return { type: "request_failed", message, retry: "resend" };
  }
  if (error instanceof HttpError && error.status < 500) {
    // The run is gone (expired or unknown): it cannot be resumed.
    if (state.resumeFallback !== null) return { type: "resume_failed", message: error.message };
    return { type: "connection_failed", message: error.message, canResume: false };
  }
  return { type: "connection_failed", message: "The connection to the server was lost.", canResume: true };
}
