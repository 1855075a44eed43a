import { Paperclip } from "lucide-react";

/** Over the tray while files are dragged onto it: where they go when dropped. */
export function DropOverlay() {
  return (
    <div className="pc-drop-overlay" aria-hidden="true">
      <Paperclip size={24} aria-hidden="true" focusable="false" />
      <span>Drop files to attach them</span>
    </div>
  );
}
