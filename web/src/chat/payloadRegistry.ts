// Payload handlers: how a `custom_payload` of a given type is shown in the side panel.
// A page passes its own handlers to ChatTray; those win over the global registry.
import type { ReactNode } from "react";
import { CHART_PAYLOAD, chartPayloadHandler } from "./chartPayload";
import type { ActionResult } from "./types";

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
}

export interface PayloadCallbacks {
  /** Accept the payload (or an edited version of its data) and close the panel. */
  onAccept: (data?: unknown) => void;
  /** Reject it and close the panel (a card with nothing to accept: just close it). */
  onReject: () => void;
  conversation: PayloadConversation;
}

export interface PayloadRenderOptions {
  /** CSS width of the panel, e.g. "500px". */
  panelWidth?: string;
  headerTitle?: string;
  headerIcon?: string;
}

export interface PayloadHandler {
  render: (data: unknown, callbacks: PayloadCallbacks) => ReactNode;
  /** Called with the accepted data, the page context the tray was given and the card's conversation. */
  onAccept?: (data: unknown, context: Record<string, unknown>, conversation: PayloadConversation) => void;
  onReject?: (data: unknown) => void;
  renderOptions?: PayloadRenderOptions;
}

export type PayloadHandlers = Record<string, PayloadHandler>;

// Built in: a page or app may still register its own handler for "chart".
const registry = new Map<string, PayloadHandler>([[CHART_PAYLOAD, chartPayloadHandler]]);

/** Registers a handler for every page; returns a function that removes it again. */
export function registerPayloadHandler(type: string, handler: PayloadHandler): () => void {
  registry.set(type, handler);
  return () => {
    if (registry.get(type) === handler) registry.delete(type);
  };
}

/** The page's handler for `type`, else the global one, else undefined. */
export function resolvePayloadHandler(type: string, pageHandlers?: PayloadHandlers): PayloadHandler | undefined {
  return (pageHandlers && Object.hasOwn(pageHandlers, type) ? pageHandlers[type] : undefined) ?? registry.get(type);
}
