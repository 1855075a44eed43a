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
      <button
        type="button"
        className="pc-icon-button"
        aria-label="Conversations"
        aria-pressed={view === "conversations"}
        onClick={onToggleConversations}
      >
        ☰
      </button>
      <button type="button" className="pc-icon-button" aria-label="New conversation" onClick={onNew}>
        +
      </button>
      <button type="button" className="pc-icon-button" aria-label="Close chat" onClick={onClose}>
        ×
      </button>
    </header>
  );
}
