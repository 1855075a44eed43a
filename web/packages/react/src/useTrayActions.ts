// Suggested-action buttons: server actions run through the chat, client ones through the page's handlers.
import { useCallback } from "react";
import { resolveClientAction, type ClientActions } from "./clientActions";
import type { SuggestedAction } from "./types";
import type { UseChat } from "./useChat";

export interface TrayActions {
  isActionAvailable: (action: SuggestedAction) => boolean;
  runAction: (action: SuggestedAction) => Promise<void>;
}

export function useTrayActions(
  chat: UseChat,
  clientActions: ClientActions | undefined,
  helpers: { close: () => void; send: (text: string, context?: Record<string, unknown>) => void; context: Record<string, unknown> },
): TrayActions {
  const { runServerAction } = chat;
  const { close, send, context } = helpers;
  const isActionAvailable = useCallback(
    (action: SuggestedAction) =>
      action.handler === "server" || resolveClientAction(action.action, clientActions) !== undefined,
    [clientActions],
  );
  const runAction = useCallback(
    async (action: SuggestedAction) => {
      if (action.handler === "server") {
        await runServerAction(action);
        return;
      }
      const handler = resolveClientAction(action.action, clientActions);
      await handler?.(action.data, { close, send, context });
    },
    [clientActions, close, send, runServerAction, context],
  );
  return { isActionAvailable, runAction };
}
