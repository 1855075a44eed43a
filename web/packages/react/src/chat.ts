// The chat controller: the store (state and batching) with the parts that change it, each
// in controller/: the run's stream and Stop, stored history, versions, server actions and
// decisions. Plain TypeScript, no React: `useChat` is a thin hook on top of it. Its commands
// are bound, so the hook and the components hand them out as they are.
import type { ChatApi } from "./api";
import { ServerActions } from "./controller/actions";
import { AttachmentDrafts } from "./controller/attachments";
import { Branches } from "./controller/branches";
import { Decisions } from "./controller/decisions";
import { History } from "./controller/history";
import { LocalIds } from "./controller/ids";
import { ChatStore, type Scheduler } from "./controller/store";
import { RunStream } from "./controller/stream";
import { emptyMessage, isBusy, type ChatState } from "./state";
import type { AttachmentRef, ChatRequest } from "./types";

export { frameScheduler, type Scheduler } from "./controller/store";

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

export class ChatController {
  private readonly api: ChatApi;
  private readonly store: ChatStore;
  private readonly stream: RunStream;
  private readonly history: History;
  private readonly ids = new LocalIds();
  private readonly branches: Branches;
  private readonly actions: ServerActions;
  private readonly decisions: Decisions;
  private context: Record<string, unknown>;
  private readonly getContext: () => Record<string, unknown>;
  /** The files attached to the message being written in the composer. */
  readonly drafts: AttachmentDrafts;

  constructor(options: ChatControllerOptions) {
    const { api } = options;
    this.api = api;
    this.context = options.context ?? {};
    this.getContext = options.getContext ?? (() => this.context);
    const { getContext } = this;
    this.drafts = new AttachmentDrafts({ api });
    const store = new ChatStore(options.schedule);
    const history = new History({ store, api });
    const stream = new RunStream({ store, api, stopTimeoutMs: options.stopTimeoutMs ?? 5_000 });
    this.store = store;
    this.history = history;
    this.stream = stream;
    this.branches = new Branches({ store, api, history, stream, ids: this.ids, getContext });
    this.actions = new ServerActions({ store, api, ids: this.ids, getContext });
    // An approval's turn goes on in a new run: showing the conversation again follows it.
    this.decisions = new Decisions({ store, api, history, reload: (id) => this.loadConversation(id) });
  }

  getState = (): ChatState => this.store.getState();

  subscribe = (listener: () => void): (() => void) => this.store.subscribe(listener);

  /** Replaces the page context sent with the next messages and actions. */
  setContext = (context: Record<string, unknown>): void => {
    this.context = context;
  };

  /**
   * Sends a user message and streams the answer. Ignored while a turn is running. A message
   * sent while a conversation loads (the one restored after a reload) waits for it, so it
   * joins that conversation instead of starting a new one. `context`, when given, is sent
   * instead of the page context (a page that changed before the controller heard of it).
   * `attachments` (uploaded files) go with it; with them the text may be empty.
   */
  send = async (text: string, context?: Record<string, unknown>, attachments: AttachmentRef[] = []): Promise<void> => {
    if (text.trim() === "" && attachments.length === 0) return;
    await this.history.whenLoaded();
    const { status, conversationId } = this.store.getState();
    if (isBusy(status)) return;
    const message = { ...emptyMessage(this.ids.next("user"), "user", text), attachments };
    const body: ChatRequest = {
      message: text,
      context: context ?? this.getContext(),
      conversation_id: conversationId,
      attachments: attachments.map((a) => a.id),
    };
    await this.stream.start({ type: "send", message }, (signal) => this.api.chatStream(body, signal));
  };

  /**
   * Sends the composer's message: its text and the files attached to it (`drafts`), which
   * then start afresh. Ignored while a file is still uploading or a turn is running.
   */
  sendDraft = async (text: string, context?: Record<string, unknown>): Promise<void> => {
    const { drafts } = this;
    if (drafts.getState().pending || isBusy(this.store.getState().status)) return;
    if (text.trim() === "" && drafts.getState().drafts.length === 0) return;
    const attachments = drafts.take() ?? [];
    await this.send(text, context, attachments);
  };

  /** A fresh set of drafts for editing a sent message, starting from the files it has. */
  editDrafts = (initial: AttachmentRef[]): AttachmentDrafts => new AttachmentDrafts({ api: this.api, initial });

  /** Stops the running answer: the server cancels the run and the stream ends with `cancelled`. */
  stop = (): Promise<void> => this.stream.stop();

  /** Retries after an error: resumes a dropped run, or sends the last message again. */
  retry = async (): Promise<void> => {
    const { error, runId, lastEventId, status, messages } = this.store.getState();
    if (error === null || isBusy(status)) return;
    if (error.retry === "resume" && runId !== null) {
      await this.stream.start({ type: "resume" }, (signal) => this.api.resumeRun(runId, lastEventId, signal));
      return;
    }
    if (error.retry !== "resend") return;
    const lastUser = messages.findLast((m) => m.role === "user");
    if (lastUser === undefined) return;
    // A message the server never accepted is replaced by its new attempt.
    if (!error.inMessage && messages.at(-1)?.id === lastUser.id) {
      this.store.dispatch({ type: "remove", id: lastUser.id });
    }
    await this.send(lastUser.content, undefined, lastUser.attachments);
  };

  /** Shows a stored conversation; a turn still running in it is replayed and followed live. */
  loadConversation = async (id: string, { quiet = false }: { quiet?: boolean } = {}): Promise<boolean> => {
    this.detach();
    if (!(await this.history.show(id, quiet))) return false;
    const { runId, status } = this.store.getState();
    if (status === "reconnecting" && runId !== null) {
      await this.stream.follow((signal) => this.api.resumeRun(runId, 0, signal));
    }
    return true;
  };

  /** Shows the page of stored messages before the first one shown (none: does nothing). */
  loadOlder = (): Promise<void> => this.history.loadOlder();

  /** Starts over. A running turn goes on on the server and is stored there. */
  newConversation = (): void => {
    this.detach();
    this.store.dispatch({ type: "reset" });
  };

  /** Stops following the current stream (the run itself goes on) and drops queued events. */
  detach = (): void => {
    this.store.nextGeneration();
    this.history.detach();
    this.stream.detach();
  };

  // The commands of the parts, each documented where it lives (controller/actions.ts,
  // decisions.ts, branches.ts), handed out from here so callers need only the controller.
  runServerAction: ServerActions["runServerAction"] = (action) => this.actions.runServerAction(action);
  runAction: ServerActions["runAction"] = (action, data) => this.actions.runAction(action, data);
  decidePayload: Decisions["decidePayload"] = (messageId, decision) => this.decisions.decidePayload(messageId, decision);
  decideApproval: Decisions["decideApproval"] = (approvalId, approved, note) =>
    this.decisions.decideApproval(approvalId, approved, note);
  setFeedback: Decisions["setFeedback"] = (messageId, rating, comment) => this.decisions.setFeedback(messageId, rating, comment);
  regenerate: Branches["regenerate"] = (messageId) => this.branches.regenerate(messageId);
  editAndResend: Branches["editAndResend"] = (messageId, text, attachments) => this.branches.editAndResend(messageId, text, attachments);
  continueAnswer: Branches["continueAnswer"] = (messageId) => this.branches.continueAnswer(messageId);
  selectBranch: Branches["selectBranch"] = (messageId, position) => this.branches.selectBranch(messageId, position);
}
