// Payload handlers: how a `custom_payload` of a given type is shown. One global registry
// renders each type the same on every page (so a conversation reopened elsewhere looks the
// same); a page adds only what it can do with a card: accept it, and named actions.
import { CHART_PAYLOAD, chartPayloadHandler } from "./chartPayload";
import type { PagePayloadHandler, PayloadHandler, PayloadHandlers } from "./payloadHandler";

export type {
  PagePayloadHandler,
  PayloadCallbacks,
  PayloadConversation,
  PayloadHandler,
  PayloadHandlers,
  PayloadPageActions,
  PayloadRenderOptions,
} from "./payloadHandler";

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
