import { List, SquarePen, X } from "lucide-react";
import { IconButton } from "./IconButton";

export interface TrayHeaderProps {
  title: string;
  view: "chat" | "conversations";
  onToggleConversations: () => void;
  onNew: () => void;
  onClose: () => void;
}

export function TrayHeader({ title, view, onToggleConversations, onNew, onClose }: TrayHeaderProps) {
  return (
    <header className="pc-tray-header">
      <h2 className="pc-tray-title">{title}</h2>
      <IconButton icon={List} label="Conversations" aria-pressed={view === "conversations"} onClick={onToggleConversations} />
      <IconButton icon={SquarePen} label="New conversation" onClick={onNew} />
      <IconButton icon={X} label="Close chat" onClick={onClose} />
    </header>
  );
}
