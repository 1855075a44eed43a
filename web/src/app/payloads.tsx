import { StickyNote } from "lucide-react";
// Payload handlers the demo app offers on every page (the global registry).
import { registerPayloadHandler } from "@pagechat/react";

function NoteCard({ data }: { data: unknown }) {
  const text = typeof data === "object" && data !== null && "text" in data ? String(data.text) : JSON.stringify(data);
  return <p className="app-note">{text}</p>;
}

export function registerAppPayloads(): () => void {
  return registerPayloadHandler("demo_note", {
    render: (data) => <NoteCard data={data} />,
    renderOptions: { headerTitle: "Note", headerIcon: <StickyNote size={18} />, panelWidth: "360px" },
  });
}
