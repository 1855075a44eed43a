// Stored conversations: showing one, its earlier pages, and reading it back so the messages
// of this session's turns carry their stored ids and versions.
import type { ChatApi } from "../api";
import { isBusy } from "../state";
import type { ChatMessage } from "../types";
import { errorMessage } from "./errors";
import { isLocalId } from "./ids";
import type { ChatStore } from "./store";

export interface HistoryOptions {
  store: ChatStore;
  api: ChatApi;
}

/** Loads stored conversations into the store. */
export class History {
  private readonly store: ChatStore;
  private readonly api: ChatApi;
  /** A conversation being fetched to be shown; settles once it is (or the load failed). */
  private loading: Promise<boolean> | null = null;
  private loadingOlder = false;

  constructor({ store, api }: HistoryOptions) {
    this.store = store;
    this.api = api;
  }

  /**
   * Shows stored conversation `id`; false when it could not be loaded or something else was
   * shown meanwhile. Quiet: restoring the last conversation after a reload, so one that is
   * gone starts afresh instead of showing an error.
   */
  async show(id: string, quiet: boolean): Promise<boolean> {
    const shown = this.fetchAndShow(id, quiet, this.store.generation);
    this.loading = shown;
    try {
      return await shown;
    } finally {
      if (this.loading === shown) this.loading = null;
    }
  }

  /** Settles once no conversation is being loaded (a message sent meanwhile joins it). */
  async whenLoaded(): Promise<void> {
    while (this.loading !== null) await this.loading;
  }

  /** Forgets a load under way: what it fetches is not shown (the store's generation moved on). */
  detach(): void {
    this.loading = null;
  }

  /** Shows the page of stored messages before the first one shown (none: does nothing). */
  loadOlder = async (): Promise<void> => {
    const { conversationId, older } = this.store.getState();
    if (conversationId === null || older === null || this.loadingOlder) return;
    const generation = this.store.generation;
    this.loadingOlder = true;
    try {
      const page = await this.api.getConversation(conversationId, older);
      if (generation === this.store.generation) this.store.dispatch({ type: "prepend", conversation: page });
    } catch {
      // Nothing is lost: the newer messages stay, and scrolling up asks again.
    } finally {
      this.loadingOlder = false;
    }
  };

  /** Reads the conversation's newest page back, so ids and versions are the stored ones. */
  async sync(): Promise<void> {
    const { conversationId, status } = this.store.getState();
    if (conversationId === null || isBusy(status)) return;
    const generation = this.store.generation;
    try {
      const detail = await this.api.getConversation(conversationId);
      if (generation === this.store.generation) this.store.dispatch({ type: "sync", conversation: detail });
    } catch {
      // What is shown stays; the next action reads it again.
    }
  }

  /**
   * The message as the server stores it. Messages of this session's turns carry local ids
   * until the conversation is read back; the one at the same place is the same message.
   */
  async stored(messageId: string): Promise<ChatMessage | null> {
    const messages = this.store.getState().messages;
    const at = messages.findIndex((m) => m.id === messageId);
    if (at === -1) return null;
    if (!isLocalId(messageId)) return messages[at] ?? null;
    await this.sync();
    const found = this.store.getState().messages[at];
    return found === undefined || isLocalId(found.id) ? null : found;
  }

  private async fetchAndShow(id: string, quiet: boolean, generation: number): Promise<boolean> {
    let detail;
    try {
      detail = await this.api.getConversation(id);
    } catch (error) {
      if (generation !== this.store.generation) return false;
      this.store.dispatch(
        quiet
          ? { type: "reset" }
          : { type: "request_failed", message: errorMessage(error, "Could not load the conversation."), retry: "none" },
      );
      return false;
    }
    if (generation !== this.store.generation) return false;
    this.store.dispatch({ type: "load", conversation: detail });
    return true;
  }
}
