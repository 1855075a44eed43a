// Client actions: suggested-action buttons with `handler: "client"` run one of these.

export interface ClientActionHelpers {
  /** Closes the chat tray. */
  close: () => void;
  /** Sends a message as the user; with `context`, that page context instead of the tray's
   * (a page that has just changed, e.g. opened a tab, before the tray has its new context). */
  send: (text: string, context?: Record<string, unknown>) => void;
  context: Record<string, unknown>;
}

export type ClientActionHandler = (
  data: Record<string, unknown> | null,
  helpers: ClientActionHelpers,
) => void | Promise<void>;

export type ClientActions = Record<string, ClientActionHandler>;

/** Available on every page. */
export const builtinClientActions: ClientActions = {
  close_chat: (_data, { close }) => {
    close();
  },
};

export function resolveClientAction(action: string, page?: ClientActions): ClientActionHandler | undefined {
  if (page && Object.hasOwn(page, action)) return page[action];
  return Object.hasOwn(builtinClientActions, action) ? builtinClientActions[action] : undefined;
}
