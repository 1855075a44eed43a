// Typed payload handlers: the tray hands a card `unknown` data; these check it with the
// payload's generated guard (payloads.gen.ts, from the pydantic model in payloads.py: its
// required keys and the kinds of its plain fields) before a card sees it.
import type { ReactNode } from "react";
import type { PagePayloadHandler, PayloadCallbacks, PayloadConversation, PayloadHandler, PayloadRenderOptions } from "@pagechat/react";
import { horizonPayloadGuards, type HorizonPayloads } from "./generated/payloads.gen";
import { InvalidPayload } from "./cards/InvalidPayload";

export type PayloadType = keyof HorizonPayloads;

/** `data` as the payload `type`, or null when it is not one (a required key missing, ...). */
export function payloadData<T extends PayloadType>(type: T, data: unknown): HorizonPayloads[T] | null {
  if (Array.isArray(data)) return null;
  const guard: (value: unknown) => value is HorizonPayloads[T] = horizonPayloadGuards[type];
  return guard(data) ? data : null;
}

export interface TypedHandler<T extends PayloadType> {
  render: (data: HorizonPayloads[T], callbacks: PayloadCallbacks) => ReactNode;
  /** `conversation.runAction` applies it through a server action recorded in the chat. */
  onAccept?: (data: HorizonPayloads[T], conversation: PayloadConversation) => void;
  onReject?: () => void;
  renderOptions: PayloadRenderOptions;
}

export function payloadHandler<T extends PayloadType>(type: T, handler: TypedHandler<T>): PayloadHandler {
  const { onAccept, onReject } = handler;
  return {
    render: (data, callbacks) => {
      const typed = payloadData(type, data);
      return typed === null ? <InvalidPayload type={type} /> : handler.render(typed, callbacks);
    },
    onAccept:
      onAccept &&
      ((data, _context, conversation) => {
        const typed = payloadData(type, data);
        if (typed !== null) onAccept(typed, conversation);
      }),
    onReject: onReject && (() => {
      onReject();
    }),
    renderOptions: handler.renderOptions,
  };
}

export interface PageActions<T extends PayloadType> {
  /** Accepting the card on this page (then the panel opens by itself for it). */
  onAccept?: (data: HorizonPayloads[T], conversation: PayloadConversation) => void;
  /** Named actions the card offers on this page (see HorizonCardActions). */
  actions?: Record<string, ((...args: never[]) => unknown) | undefined>;
}

/** What a page adds to a globally registered Horizon card: its actions, typed by the payload. */
export function pageActions<T extends PayloadType>(type: T, page: PageActions<T>): PagePayloadHandler {
  const { onAccept, actions } = page;
  return {
    onAccept:
      onAccept &&
      ((data, _context, conversation) => {
        const typed = payloadData(type, data);
        if (typed !== null) onAccept(typed, conversation);
      }),
    actions,
  };
}

/** A page action of the card by name, if the page gave a function. */
export function cardAction(callbacks: PayloadCallbacks, name: string): ((...args: never[]) => unknown) | undefined {
  const action = callbacks.actions[name];
  return typeof action === "function" ? action : undefined;
}
