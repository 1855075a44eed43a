// What the user says about a message: a card accepted, rejected or closed, a tool call
// approved or denied, an answer rated. Each is recorded on the server, so a reload shows it.
import type { ChatApi } from "../api";
import type { FeedbackRating, PayloadDecision } from "../types";
import { errorMessage } from "./errors";
import type { History } from "./history";
import type { ChatStore } from "./store";

export interface DecisionsOptions {
  store: ChatStore;
  api: ChatApi;
  history: History;
  /** Shows a stored conversation again and follows a turn running in it (after an approval). */
  reload: (conversationId: string) => Promise<unknown>;
}

/** Card decisions, approvals and feedback. */
export class Decisions {
  private readonly store: ChatStore;
  private readonly api: ChatApi;
  private readonly history: History;
  private readonly reload: (conversationId: string) => Promise<unknown>;

  constructor({ store, api, history, reload }: DecisionsOptions) {
    this.store = store;
    this.api = api;
    this.history = history;
    this.reload = reload;
  }

  /**
   * Records what the user did with a message's card: here at once, so the card stays closed,
   * then on the server, so it stays closed after a reload and the model is told.
   */
  decidePayload = async (messageId: string, decision: PayloadDecision): Promise<void> => {
    const before = this.store.getState();
    const message = before.messages.find((m) => m.id === messageId);
    if (message === undefined || message.custom_payload === null) return;
    this.store.dispatch({ type: "decide", id: messageId, decision });
    // Unchanged (a close after an accept): the server would keep what it has too.
    if (before.conversationId === null || this.store.getState() === before) return;
    try {
      await this.api.decidePayload(before.conversationId, messageId, decision);
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
    const conversationId = this.store.getState().conversationId;
    let failure: string | null = null;
    try {
      await this.api.decideApproval(approvalId, {
        decision: approved ? "approved" : "denied",
        note: note !== undefined && note.trim() !== "" ? note.trim() : null,
      });
    } catch (error) {
      failure = errorMessage(error, "The decision could not be sent.");
    }
    if (conversationId !== null) await this.reload(conversationId);
    if (failure !== null && this.store.getState().messages.at(-1)?.status === "needs_approval") {
      this.store.dispatch({ type: "request_failed", message: failure, retry: "none" });
    }
  };

  /** Thumbs up or down on an answer, with an optional comment; sent again, it replaces the last. */
  setFeedback = async (messageId: string, rating: FeedbackRating, comment: string | null = null): Promise<boolean> => {
    const target = await this.history.stored(messageId);
    const conversationId = this.store.getState().conversationId;
    if (target === null || conversationId === null) return false;
    try {
      const message = await this.api.setFeedback(conversationId, target.id, { rating, comment });
      this.store.dispatch({ type: "feedback", id: target.id, feedback: message.feedback });
      return true;
    } catch {
      return false;
    }
  };
}
