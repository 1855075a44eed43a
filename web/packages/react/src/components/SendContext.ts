import { createContext, useContext } from "react";

/** Sends a message as the user: the tray gives it to what it renders (e.g. a page's welcome hints). */
export const SendContext = createContext<((text: string) => void) | null>(null);

/** The tray's send, for content rendered inside it; null outside a tray. */
export function useSendMessage(): ((text: string) => void) | null {
  return useContext(SendContext);
}
