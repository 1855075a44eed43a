// The notes example's screen and card (its server is examples/notes/app.py).
import { StickyNote } from "lucide-react";
import { useEffect, useMemo, useState } from "react";
import { createChatApi, type PayloadHandlers } from "@pagechat/react";
import { Layout } from "../app/Layout";
import { PageChatHost, usePageChat, type PageChat } from "../app/pageChat";
import type { AppProps, ShellApp } from "../app/shellApp";
import { isNote } from "./payloads.gen";

function NoteCard({ data }: { data: unknown }) {
  if (!isNote(data)) return <p>This note cannot be shown.</p>;
  return (
    <article className="app-card" data-card="note">
      <h3>{data.title}</h3>
      <p>{data.body}</p>
    </article>
  );
}

const HANDLERS: PayloadHandlers = {
  note: {
    render: (data) => <NoteCard data={data} />,
    renderOptions: { headerTitle: "Note", headerIcon: <StickyNote size={18} />, panelWidth: "360px" },
  },
};

function NotesPage() {
  const chat = useMemo<PageChat>(
    () => ({ context: { current_page: "notes" }, payloadHandlers: HANDLERS, welcome: <p>Ask me to save a note.</p> }),
    [],
  );
  usePageChat(chat);
  return <h1>Notes</h1>;
}

export function NotesApp({ token, onSignOut }: AppProps) {
  const [email, setEmail] = useState<string | null>(null);
  useEffect(() => {
    createChatApi({ getToken: () => token, onUnauthorized: onSignOut })
      .me()
      .then((user) => {
        setEmail(user.email);
      }, () => undefined);
  }, [token, onSignOut]);
  return (
    <PageChatHost token={token} onUnauthorized={onSignOut} title="Assistant">
      <Layout brand="Notes" nav={[]} email={email} onSignOut={onSignOut}>
        <NotesPage />
      </Layout>
    </PageChatHost>
  );
}

export const NOTES_APP: ShellApp = { name: "notes", pages: ["notes"], Component: NotesApp };
