// Versions of a message: a new answer to the same question, an edited question, an answer
// continued, and the picker between versions. The server keeps the versions and the one
// chosen; after a branch the conversation is read back so the view shows its stored path.
import type { BranchKind, ChatApi } from "../api";
import type { AttachmentRef } from "../types";
import { emptyMessage, isBusy } from "../state";
import { errorMessage } from "./errors";
import type { History } from "./history";
import type { LocalIds } from "./ids";
import type { ChatStore } from "./store";
import type { RunStream } from "./stream";

export interface BranchesOptions {
  store: ChatStore;
  api: ChatApi;
  history: History;
  stream: RunStream;
  ids: LocalIds;
  /** The page context sent with the branch's turn. */
  getContext: () => Record<string, unknown>;
}

/** Regenerate, edit and resend, continue, and choosing a version. */
export class Branches {
  private readonly store: ChatStore;
  private readonly api: ChatApi;
  private readonly history: History;
  private readonly stream: RunStream;
  private readonly ids: LocalIds;
  private readonly getContext: () => Record<string, unknown>;

  constructor(options: BranchesOptions) {
    this.store = options.store;
    this.api = options.api;
    this.history = options.history;
    this.stream = options.stream;
    this.ids = options.ids;
    this.getContext = options.getContext;
  }

  /** A new answer to the same question, shown instead of `messageId` (a branch beside it). */
  regenerate = (messageId: string): Promise<void> => this.branch("regenerate", messageId);

  /**
   * The question `messageId` as edited, sent as a branch beside it, with its own answer.
   * `attachments`, when given, are the files of the edited question (else it keeps its own).
   */
  editAndResend = async (messageId: string, text: string, attachments?: AttachmentRef[]): Promise<void> => {
    const files = attachments ?? this.store.getState().messages.find((m) => m.id === messageId)?.attachments ?? [];
    if (text.trim() === "" && files.length === 0) return;
    await this.branch("edit", messageId, text, files);
  };

  /** Goes on with an answer that was stopped or cut off: the new text joins the same message. */
  continueAnswer = (messageId: string): Promise<void> => this.branch("continue", messageId);

  /** Shows the version of `messageId` at `position` (the branch picker); the server keeps the choice. */
  selectBranch = async (messageId: string, position: number): Promise<void> => {
    if (isBusy(this.store.getState().status)) return;
    const target = await this.history.stored(messageId);
    const conversationId = this.store.getState().conversationId;
    if (target === null || conversationId === null) return;
    try {
      const detail = await this.api.selectBranch(conversationId, target.id, position);
      this.store.dispatch({ type: "sync", conversation: detail });
    } catch (error) {
      this.store.dispatch({ type: "request_failed", message: errorMessage(error, "Could not switch versions."), retry: "none" });
    }
  };

  private async branch(kind: BranchKind, messageId: string, text?: string, attachments: AttachmentRef[] = []): Promise<void> {
    await this.history.whenLoaded();
    if (isBusy(this.store.getState().status)) return;
    const target = await this.history.stored(messageId);
    const conversationId = this.store.getState().conversationId;
    if (target === null || conversationId === null) return;
    const context = this.getContext();
    // The edited question shows at once, as the version after the last one it has.
    const edited =
      kind === "edit" && text !== undefined
        ? {
            ...emptyMessage(this.ids.next("user"), "user", text),
            attachments,
            sibling_count: target.sibling_count + 1,
            sibling_position: target.sibling_count + 1,
          }
        : null;
    const body = kind === "edit" ? { message: text ?? "", context, attachments: attachments.map((a) => a.id) } : { context };
    await this.stream.start(
      { type: "branch", cut: target.id, message: edited, resume: kind === "continue" ? target : null },
      (signal) => this.api.branchStream(conversationId, target.id, kind, body, signal),
    );
    await this.history.sync();
  }
}
