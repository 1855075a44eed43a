import { FileText, X } from "lucide-react";
import { hasThumbnail } from "../attachments";
import type { AttachmentDraft } from "../controller/attachments";
import { AttachmentLabel } from "./AttachmentLabel";
import { AttachmentThumbnail } from "./AttachmentThumbnail";
import { IconButton } from "./IconButton";

export interface AttachmentChipProps {
  draft: AttachmentDraft;
  onRemove: (key: string) => void;
}

/** A file of the message being written: its thumbnail or icon, name, type and size, and ×. */
export function AttachmentChip({ draft, onRemove }: AttachmentChipProps) {
  const uploading = draft.stored === null;
  const image = draft.preview !== null || (draft.stored !== null && hasThumbnail(draft.stored.media_type));
  return (
    <li className="pc-attachment" data-state={uploading ? "uploading" : "ready"} aria-busy={uploading}>
      {image ? (
        <AttachmentThumbnail preview={draft.preview} id={draft.stored?.id ?? null} />
      ) : (
        <FileText className="pc-attachment-icon" size={20} aria-hidden="true" focusable="false" />
      )}
      <AttachmentLabel name={draft.name} media_type={draft.media_type} size={draft.size} note={uploading ? "Uploading…" : undefined} />
      {uploading && <progress className="pc-attachment-progress" aria-label={`Uploading ${draft.name}`} />}
      <IconButton
        icon={X}
        label={`Remove ${draft.name}`}
        className="pc-icon-button pc-attachment-remove"
        onClick={() => {
          onRemove(draft.key);
        }}
      />
    </li>
  );
}
