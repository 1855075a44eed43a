// What a payload handler is: how a card of a type is drawn and what a page can do with it.
// Types only, so the built-in handlers (chartPayload.tsx) and the registry both build on it.
import type { ReactNode } from "react";
import type { ActionResult, PayloadDecision } from "./types";

/** The conversation a card was shown in, for the work accepting it does. */
export interface PayloadConversation {
  /** Null only before the server has named the conversation. */
  conversationId: string | null;
  /** The answer that carries the payload. */
  messageId: string;
  /**
   * Runs a server action of the page in this conversation: it is recorded there and shown
   * in the chat exactly as one run from a chat button, so the model knows of it next turn.
   */
  runAction: (action: string, data?: Record<string, unknown>) => Promise<ActionResult>;
  /**
   * Records a new decision on this answer's card: a page that undid what an accept did says
   * `rejected`, so the conversation (and the model) no longer take the card as accepted.
   */
  decide: (decision: PayloadDecision) => Promise<void>;
}

/** A page's named card actions (e.g. "create"), which the card's render may offer. */
export type PayloadPageActions = Readonly<Record<string, ((...args: never[]) => unknown) | undefined>>;

export interface PayloadCallbacks {
  /** Accept the payload (or an edited version of its data) and close the panel. */
  onAccept: (data?: unknown) => void;
  /** Reject it and close the panel (a card with nothing to accept: just close it). */
  onReject: () => void;
  /** The page on screen can accept this card (it gave an `onAccept`); else the card only informs here. */
  canAccept: boolean;
  conversation: PayloadConversation;
  /** The page's context as the tray sends it, e.g. the current values a proposal changes. */
  context: Record<string, unknown>;
  /** The page's named actions for this card type (empty on a page that has none). */
  actions: PayloadPageActions;
}

export interface PayloadRenderOptions {
  /** CSS width of the panel, e.g. "500px". */
  panelWidth?: string;
  headerTitle?: string;
  /** An icon before the title (an SVG element; decorative, hidden from screen readers). */
  headerIcon?: ReactNode;
}

export interface PayloadHandler {
  render: (data: unknown, callbacks: PayloadCallbacks) => ReactNode;
  /** Called with the accepted data, the page context the tray was given and the card's conversation. */
  onAccept?: (data: unknown, context: Record<string, unknown>, conversation: PayloadConversation) => void;
  onReject?: (data: unknown) => void;
  renderOptions?: PayloadRenderOptions;
  /** Named actions a page adds (see PayloadCallbacks.actions). */
  actions?: PayloadPageActions;
}

/**
 * What a page adds to a registered card: its actions. `render` is only for a type no one
 * registered globally (then the card is seen on this page only).
 */
export type PagePayloadHandler = Partial<PayloadHandler>;

export type PayloadHandlers = Record<string, PagePayloadHandler>;
