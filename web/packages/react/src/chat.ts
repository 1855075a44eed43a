// The chat store: owns the state, runs the streams, and batches stream events so the UI
// updates at most once per animation frame. Plain TypeScript, no React: `useChat` is a
// thin hook on top of it.
import { HttpError, StreamDroppedError, UnauthorizedError, type ChatApi, type StreamItem } from "./api";
import { chatReducer, emptyMessage, initialChatState, isBusy, type ChatAction, type ChatState } from "./state";
import type { ActionResult, ChatMessage, ChatRequest, FeedbackRating, PayloadDecision, SuggestedAction } from "./types";
import type { BranchKind } from "./api";

/** The payload type of a stored server action's result. */
export const ACTION_RESULT = "action_result";

/** Runs `flush` soon, batching everything queued until then. */
export type Scheduler = (flush: () => void) => void;

/** Once per animation frame; a hidden tab gets no frames, so it falls back to a timer there. */
export const frameScheduler: Scheduler = (flush) => {
  const hidden = typeof document !== "undefined" && document.visibilityState === "hidden";
  if (typeof requestAnimationFrame === "function" && !hidden) {
    requestAnimationFrame(() => {
      flush();
    });
  } else {
    setTimeout(flush, 16);
  }
};

export interface ChatControllerOptions {
  api: ChatApi;
  /** The page state sent with every message (`current_page` picks the page config); see setContext. */
  context?: Record<string, unknown>;
  /** Alternatively, a function asked for the context at each send. */
  getContext?: () => Record<string, unknown>;
  schedule?: Scheduler;
  /** After Stop, how long to wait for the server's `cancelled` before stopping locally. */
  stopTimeoutMs?: number;
}

/** The abort reason of a Stop that could not reach the server. */
const LOCAL_STOP = new DOMException("stopped", "AbortError");

type Open = (signal: AbortSignal) => AsyncGenerator<StreamItem>;

/** Ids the tray gave messages of this session's turns (stored ones are the server's hex ids). */
function isLocalId(id: string): boolean {
  return id.includes("-local-") || id.startsWith("partial-") || id.startsWith("assistant-") || id === "streaming";
}

function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof HttpError) return error.message;
  return fallback;
}

export class ChatController {
  private state: ChatState = initialChatState;
  private readonly listeners = new Set<() => void>();
  private queue: ChatAction[] = [];
  private flushScheduled = false;
  private stream: AbortController | null = null;
  private stopRequested = false;
  private stopTimer: ReturnType<typeof setTimeout> | undefined;
  private generation = 0;
  private counter = 0;
  /** A conversation being fetched to be shown; settles once it is (or the load failed). */
  private loading: Promise<boolean> | null = null;
  private loadingOlder = false;
  private readonly api: ChatApi;
  private context: Record<string, unknown>;
  private readonly getContext: () => Record<string, unknown>;
  private readonly schedule: Scheduler;
  private readonly stopTimeoutMs: number;

  constructor(options: ChatControllerOptions) {
    this.api = options.api;
    this.context = options.context ?? {};
    this.getContext = options.getContext ?? (() => this.context);
    this.schedule = options.schedule ?? frameScheduler;
    this.stopTimeoutMs = options.stopTimeoutMs ?? 5_000;
  }

  getState = (): ChatState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  /** Replaces the page context sent with the next messages and actions. */
  setContext = (context: Record<string, unknown>): void => {
    this.context = context;
  };

  /**
   * Sends a user message and streams the answer. Ignored while a turn is running. A message
   * sent while a conversation loads (the one restored after a reload) waits for it, so it
   * joins that conversation instead of starting a new one.
   */
  send = async (text: string): Promise<void> => {
    if (text.trim() === "") return;
    while (this.loading !== null) await this.loading;
    if (isBusy(this.state.status)) return;
    const message = emptyMessage(this.nextId("user"), "user", text);
    const body: ChatRequest = {
      message: text,
      context: this.getContext(),
      conversation_id: this.state.conversationId,
    };
    this.stopRequested = false;
    this.dispatchNow({ type: "send", message });
    await this.consume((signal) => this.api.chatStream(body, signal));
  };

  /** Stops the running answer: the server cancels the run and the stream ends with `cancelled`. */
  stop = async (): Promise<void> => {
    if (!isBusy(this.state.status)) {
      // A connection that could not be resumed: give up on it and keep the partial answer.
      if (this.state.error?.retry === "resume") this.dispatchNow({ type: "stopped_locally" });
      return;
    }
    if (this.stopRequested) return;
    this.stopRequested = true;
    this.stopTimer = setTimeout(() => {
      this.stopLocally();
    }, this.stopTimeoutMs);
    const runId = this.state.runId;
    // Without a run id yet, the cancel goes out as soon as the stream names its run.
    if (runId !== null) await this.requestCancel(runId);
  };

  /** Retries after an error: resumes a dropped run, or sends the last message again. */
  retry = async (): Promise<void> => {
    const { error, runId, lastEventId, status } = this.state;
    if (error === null || isBusy(status)) return;
    if (error.retry === "resume" && runId !== null) {
      this.stopRequested = false;
      this.dispatchNow({ type: "resume" });
      await this.consume((signal) => this.api.resumeRun(runId, lastEventId, signal));
      return;
    }
    if (error.retry !== "resend") return;
    const lastUser = this.state.messages.findLast((m) => m.role === "user");
    if (lastUser === undefined) return;
    // A message the server never accepted is replaced by its new attempt.
    if (!error.inMessage && this.state.messages.at(-1)?.id === lastUser.id) {
      this.dispatchNow({ type: "remove", id: lastUser.id });
    }
    await this.send(lastUser.content);
  };

  /** Shows a stored conversation; a turn still running in it is replayed and followed live. */
  loadConversation = async (id: string, { quiet = false }: { quiet?: boolean } = {}): Promise<boolean> => {
    this.detach();
    const generation = this.generation;
    const shown = this.show(id, quiet, generation);
    this.loading = shown;
    try {
      if (!(await shown)) return false;
    } finally {
      if (this.loading === shown) this.loading = null;
    }
    const { runId, status } = this.state;
    if (status === "reconnecting" && runId !== null) {
      await this.consume((signal) => this.api.resumeRun(runId, 0, signal));
    }
    return true;
  };

  /** Fetches a conversation and shows it, unless something else was shown meanwhile. */
  private async show(id: string, quiet: boolean, generation: number): Promise<boolean> {
    let detail;
    try {
      detail = await this.api.getConversation(id);
    } catch (error) {
      if (generation !== this.generation) return false;
      // Quiet: restoring the last conversation after a reload; if it is gone, start afresh.
      this.dispatchNow(
        quiet
          ? { type: "reset" }
          : { type: "request_failed", message: errorMessage(error, "Could not load the conversation."), retry: "none" },
      );
      return false;
    }
    if (generation !== this.generation) return false;
    this.dispatchNow({ type: "load", conversation: detail });
    return true;
  }

  /** Shows the page of stored messages before the first one shown (none: does nothing). */
  loadOlder = async (): Promise<void> => {
    const { conversationId, older } = this.state;
    if (conversationId === null || older === null || this.loadingOlder) return;
    const generation = this.generation;
    this.loadingOlder = true;
    try {
      const page = await this.api.getConversation(conversationId, older);
      if (generation === this.generation) this.dispatchNow({ type: "prepend", conversation: page });
    } catch {
      // Nothing is lost: the newer messages stay, and scrolling up asks again.
    } finally {
      this.loadingOlder = false;
    }
  };

  /** Starts over. A running turn goes on on the server and is stored there. */
  newConversation = (): void => {
    this.detach();
    this.dispatchNow({ type: "reset" });
  };

  /** Runs the server action of a chat button: see runAction. */
  runServerAction = (action: SuggestedAction): Promise<ActionResult> => this.runAction(action.action, action.data ?? {});

  /**
   * Runs a server action of the page in this conversation and shows its result as an action
   * message, in the shape the server stores it (so a reload shows the same). Chat buttons
   * and payload cards both come here, so what either applies is recorded alike.
   */
  runAction = async (action: string, data: Record<string, unknown> = {}): Promise<ActionResult> => {
    let result: ActionResult;
    try {
      result = await this.api.runAction({
        conversation_id: this.state.conversationId,
        action,
        data,
        context: this.getContext(),
      });
    } catch (error) {
      result = { action, ok: false, message: errorMessage(error, "The action could not be run."), data: null };
    }
    // Worded and marked as the server stores it (store/base.py action_summary): a failure
    // reads as one, with the reason the action gave, here and after a reload.
    const reason = result.message !== "" ? `: ${result.message}` : "";
    const content = result.ok ? `Applied action ${action}${reason}` : `Action ${action} failed${reason || " (no reason given)"}`;
    this.dispatchNow({
      type: "append",
      message: {
        ...emptyMessage(this.nextId("action"), "action", content),
        status: result.ok ? "complete" : "error",
        custom_payload: { type: ACTION_RESULT, data: { action, input: data, result } },
      },
    });
    return result;
  };

  /**
   * Records what the user did with a message's card: here at once, so the card stays closed,
   * then on the server, so it stays closed after a reload and the model is told.
   */
  decidePayload = async (messageId: string, decision: PayloadDecision): Promise<void> => {
    const message = this.state.messages.find((m) => m.id === messageId);
    if (message === undefined || message.custom_payload === null) return;
    const conversationId = this.state.conversationId;
    const before = this.state;
    this.dispatchNow({ type: "decide", id: messageId, decision });
    // Unchanged (a close after an accept): the server would keep what it has too.
    if (conversationId === null || this.state === before) return;
    try {
      await this.api.decidePayload(conversationId, messageId, decision);
    } catch {
      // Nothing to show: the card is closed either way; only a reload would offer it again.
    }
  };

  /**
   * Approves or denies the tool call the conversation's answer waits for. The server goes on
   * with the turn in a new run; showing the conversation again follows it from its start
   * (the run replays the answer so far), exactly as a reload would. A decision that lost
   * (made elsewhere, or lapsed) shows the conversation as it now is, too.
   */
  decideApproval = async (approvalId: string, approved: boolean, note?: string): Promise<void> => {
    const conversationId = this.state.conversationId;
    let failure: string | null = null;
    try {
      await this.api.decideApproval(approvalId, {
        decision: approved ? "approved" : "denied",
        note: note !== undefined && note.trim() !== "" ? note.trim() : null,
      });
    } catch (error) {
      failure = errorMessage(error, "The decision could not be sent.");
    }
    if (conversationId !== null) await this.loadConversation(conversationId);
    if (failure !== null && this.state.messages.at(-1)?.status === "needs_approval") {
      this.dispatchNow({ type: "request_failed", message: failure, retry: "none" });
    }
  };

  /** A new answer to the same question, shown instead of `messageId` (a branch beside it). */
  regenerate = (messageId: string): Promise<void> => this.branch("regenerate", messageId);

  /** The question `messageId` as edited, sent as a branch beside it, with its own answer. */
  editAndResend = async (messageId: string, text: string): Promise<void> => {
    if (text.trim() === "") return;
    await this.branch("edit", messageId, text);
  };

  /** Goes on with an answer that was stopped or cut off: the new text joins the same message. */
  continueAnswer = (messageId: string): Promise<void> => this.branch("continue", messageId);

  /** Shows the version of `messageId` at `position` (the branch picker); the server keeps the choice. */
  selectBranch = async (messageId: string, position: number): Promise<void> => {
    if (isBusy(this.state.status)) return;
    const target = await this.stored(messageId);
    const conversationId = this.state.conversationId;
    if (target === null || conversationId === null) return;
    try {
      const detail = await this.api.selectBranch(conversationId, target.id, position);
      this.dispatchNow({ type: "sync", conversation: detail });
    } catch (error) {
      this.dispatchNow({ type: "request_failed", message: errorMessage(error, "Could not switch versions."), retry: "none" });
    }
  };

  /** Thumbs up or down on an answer, with an optional comment; sent again, it replaces the last. */
  setFeedback = async (messageId: string, rating: FeedbackRating, comment: string | null = null): Promise<boolean> => {
    const target = await this.stored(messageId);
    const conversationId = this.state.conversationId;
    if (target === null || conversationId === null) return false;
    try {
      const message = await this.api.setFeedback(conversationId, target.id, { rating, comment });
      this.dispatchNow({ type: "feedback", id: target.id, feedback: message.feedback });
      return true;
    } catch {
      return false;
    }
  };

  private async branch(kind: BranchKind, messageId: string, text?: string): Promise<void> {
    while (this.loading !== null) await this.loading;
    if (isBusy(this.state.status)) return;
    const target = await this.stored(messageId);
    const conversationId = this.state.conversationId;
    if (target === null || conversationId === null) return;
    const context = this.getContext();
    const edited =
      kind === "edit" && text !== undefined
        ? {
            ...emptyMessage(this.nextId("user"), "user", text),
            sibling_count: target.sibling_count + 1,
            sibling_position: target.sibling_count + 1,
          }
        : null;
    this.stopRequested = false;
    this.dispatchNow({ type: "branch", cut: target.id, message: edited, resume: kind === "continue" ? target : null });
    const body = kind === "edit" ? { message: text ?? "", context } : { context };
    await this.consume((signal) => this.api.branchStream(conversationId, target.id, kind, body, signal));
    await this.sync();
  }

  /**
   * The message as the server stores it. Messages of this session's turns carry local ids
   * until the conversation is read back; the one at the same place is the same message.
   */
  private async stored(messageId: string): Promise<ChatMessage | null> {
    const at = this.state.messages.findIndex((m) => m.id === messageId);
    if (at === -1) return null;
    if (!isLocalId(messageId)) return this.state.messages[at] ?? null;
    await this.sync();
    const found = this.state.messages[at];
    return found === undefined || isLocalId(found.id) ? null : found;
  }

  /** Reads the conversation's newest page back, so ids and versions are the stored ones. */
  private async sync(): Promise<void> {
    const conversationId = this.state.conversationId;
    if (conversationId === null || isBusy(this.state.status)) return;
    const generation = this.generation;
    try {
      const detail = await this.api.getConversation(conversationId);
      if (generation === this.generation) this.dispatchNow({ type: "sync", conversation: detail });
    } catch {
      // What is shown stays; the next action reads it again.
    }
  }

  /** Stops following the current stream (the run itself goes on) and drops queued events. */
  detach = (): void => {
    this.generation += 1;
    this.loading = null;
    this.stream?.abort();
    this.stream = null;
    this.queue = [];
    this.stopRequested = false;
    clearTimeout(this.stopTimer);
  };

  private nextId(prefix: string): string {
    this.counter += 1;
    return `${prefix}-local-${String(this.counter)}`;
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
    } else if (isBusy(this.state.status)) {
      this.dispatchNow({ type: "stopped_locally" });
    }
  }

  private async consume(open: Open): Promise<void> {
    this.stream?.abort();
    const abort = new AbortController();
    this.stream = abort;
    const generation = this.generation;
    let started = this.state.runId !== null;
    try {
      for await (const item of open(abort.signal)) {
        if (generation !== this.generation) return;
        if (item.kind === "run") {
          started = true;
          this.dispatchNow({ type: "run_started", runId: item.runId, conversationId: item.conversationId });
          if (this.stopRequested) void this.requestCancel(item.runId);
        } else if (item.kind === "event") {
          this.enqueue({ type: "event", event: item.event, id: item.id });
        } else {
          this.enqueue({ type: "reconnecting" });
        }
      }
      this.flush();
    } catch (error) {
      if (generation !== this.generation) return;
      this.flush();
      if (abort.signal.aborted) {
        if (abort.signal.reason === LOCAL_STOP) this.dispatchNow({ type: "stopped_locally" });
        return;
      }
      this.dispatchNow(this.failure(error, started));
    } finally {
      if (this.stream === abort) this.stream = null;
      if (generation === this.generation) {
        clearTimeout(this.stopTimer);
        this.stopRequested = false;
      }
    }
  }

  private failure(error: unknown, started: boolean): ChatAction {
    if (error instanceof UnauthorizedError) {
      return { type: "request_failed", message: error.message, retry: "none" };
    }
    if (error instanceof StreamDroppedError) {
      return {
        type: "connection_failed",
        message: "The connection to the server was lost.",
        canResume: error.runId !== null,
      };
    }
    if (!started) {
      const message =
        error instanceof HttpError ? error.message : "Could not reach the server. Check your connection.";
      return { type: "request_failed", message, retry: "resend" };
    }
    if (error instanceof HttpError && error.status < 500) {
      // The run is gone (expired or unknown): it cannot be resumed.
      if (this.state.resumeFallback !== null) return { type: "resume_failed", message: error.message };
      return { type: "connection_failed", message: error.message, canResume: false };
    }
    return { type: "connection_failed", message: "The connection to the server was lost.", canResume: true };
  }

  private apply(action: ChatAction): void {
    this.state = chatReducer(this.state, action);
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }

  private dispatchNow(action: ChatAction): void {
    for (const queued of this.queue) this.apply(queued);
    this.queue = [];
    this.apply(action);
    this.notify();
  }

  private enqueue(action: ChatAction): void {
    this.queue.push(action);
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    this.schedule(() => {
      this.flushScheduled = false;
      this.flush();
    });
  }

  private flush(): void {
    if (this.queue.length === 0) return;
    const queued = this.queue;
    this.queue = [];
    for (const action of queued) this.apply(action);
    this.notify();
  }
}
