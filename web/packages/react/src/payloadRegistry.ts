// Payload handlers: how a `custom_payload` of a given type is shown. One global registry
// renders each type the same on every page (so a conversation reopened elsewhere looks the
// same); a page adds only what it can do with a card: accept it, and named actions.
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

// Built in: a page or app may still register its own handler for "chart".
const registry = new Map<string, PayloadHandler>([[CHART_PAYLOAD, chartPayloadHandler]]);

/** Registers a handler for every page; returns a function that removes it again. */
export function registerPayloadHandler(type: string, handler: PayloadHandler): () => void {
  registry.set(type, handler);
  return () => {
    if (registry.get(type) === handler) registry.delete(type);
  };
}

// Merged handlers, kept per page handler (else per fallback) so a card's handler is stable
// between renders.
interface Merged {
  global: PayloadHandler | undefined;
  page: PagePayloadHandler | undefined;
  fallback: PayloadHandler | undefined;
  handler: PayloadHandler | undefined;
}
const merged = new WeakMap<object, Merged>();

function _merge(global: PayloadHandler | undefined, page: PagePayloadHandler | undefined, fallback: PayloadHandler | undefined): PayloadHandler | undefined {
  const render = global?.render ?? page?.render ?? fallback?.render;
  if (render === undefined) return undefined;
  const handler: PayloadHandler = {
    ...fallback,
    ...global,
    ...page,
    render,
    renderOptions: { ...fallback?.renderOptions, ...global?.renderOptions, ...page?.renderOptions },
  };
  const onAccept = page?.onAccept ?? global?.onAccept ?? fallback?.onAccept;
  if (onAccept !== undefined) handler.onAccept = onAccept;
  return handler;
}

/**
 * The global handler for `type` with the page's actions added to it, or undefined. `fallback`
 * (the schema card) renders a type no one registered a card for, and accepts one whose page
 * and global handler give no `onAccept`.
 */
export function resolvePayloadHandler(type: string, pageHandlers?: PayloadHandlers, fallback?: PayloadHandler): PayloadHandler | undefined {
  const global = registry.get(type);
  const page = pageHandlers && Object.hasOwn(pageHandlers, type) ? pageHandlers[type] : undefined;
  const key = page ?? fallback;
  if (key === undefined) return global;
  const cached = merged.get(key);
  if (cached !== undefined && cached.global === global && cached.page === page && cached.fallback === fallback) return cached.handler;
  const handler = _merge(global, page, fallback);
  merged.set(key, { global, page, fallback, handler });
  return handler;
}

/** A card that waits for a decision: the page on screen can accept it. */
export function awaitsDecision(handler: PayloadHandler): boolean {
  return handler.onAccept !== undefined;
}
