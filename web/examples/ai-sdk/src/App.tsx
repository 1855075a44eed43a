// The page: the chat id lives in the address (`?chat=`), so a reload reaches the same chat;
// `?resumable=1` opts into resumable streams (the answer outlives a reload, Stop uses the route).
import { generateId } from "ai";
import { useEffect, useState } from "react";
import { Chat } from "./Chat";
import { storedMessages, type ChatMessage } from "./history";

function chatIdFromUrl(): string {
  const url = new URL(window.location.href);
  let id = url.searchParams.get("chat");
  if (!id) {
    id = generateId();
    url.searchParams.set("chat", id);
    window.history.replaceState(null, "", url);
  }
  return id;
}

export function App() {
  const [chatId] = useState(chatIdFromUrl);
  const [resumable, setResumable] = useState(() => new URL(window.location.href).searchParams.get("resumable") === "1");
  const [initial, setInitial] = useState<ChatMessage[] | null>(null);

  useEffect(() => {
    void storedMessages(chatId).then(setInitial);
  }, [chatId]);

  function toggle(on: boolean) {
    const url = new URL(window.location.href);
    if (on) url.searchParams.set("resumable", "1");
    else url.searchParams.delete("resumable");
    window.history.replaceState(null, "", url);
    setResumable(on);
  }

  return (
    <main>
      <h1>useChat on pagechat</h1>
      <label>
        <input type="checkbox" checked={resumable} onChange={(e) => { toggle(e.target.checked); }} /> Resumable streams
      </label>
      {initial === null ? <p>Loading…</p> : <Chat key={`${chatId}-${String(resumable)}`} chatId={chatId} initial={initial} resumable={resumable} />}
    </main>
  );
}
