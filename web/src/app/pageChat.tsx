// One chat tray for the whole app, configured by the page on screen: the page says what it
// shows (context), how its payloads render and which client actions it offers. The tray
// stays mounted while the user moves between pages, so a running answer goes on.
import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from "react";
import { ChatTray, type ClientActions, type PayloadHandlers } from "@pagechat/react";

export interface PageChat {
  /** Sent with every message; `current_page` picks the server's page config. */
  context: Record<string, unknown>;
  payloadHandlers?: PayloadHandlers;
  clientActions?: ClientActions;
  /** What the empty tray says on this page. */
  welcome?: ReactNode;
  /** The page's notice about an assistant action (Undo), shown in the tray too. */
  notice?: ReactNode;
}

const SetPageChat = createContext<(chat: PageChat) => void>(() => undefined);

/** Hands the page's chat configuration to the tray; pass a memoized value. */
export function usePageChat(chat: PageChat): void {
  const set = useContext(SetPageChat);
  useEffect(() => {
    set(chat);
  }, [set, chat]);
}

export interface PageChatHostProps {
  token: string | null;
  onUnauthorized: () => void;
  title?: string;
  children: ReactNode;
}

const NO_PAGE: PageChat = { context: {} };

export function PageChatHost({ token, onUnauthorized, title, children }: PageChatHostProps) {
  const [chat, setChat] = useState<PageChat>(NO_PAGE);
  const getToken = useCallback(() => token, [token]);
  return (
    <SetPageChat.Provider value={setChat}>
      {children}
      <ChatTray
        context={chat.context}
        payloadHandlers={chat.payloadHandlers}
        clientActions={chat.clientActions}
        welcome={chat.welcome}
        notice={chat.notice}
        getToken={getToken}
        onUnauthorized={onUnauthorized}
        title={title}
      />
    </SetPageChat.Provider>
  );
}
