import { X } from "lucide-react";
import type { AttachmentDrafts } from "../controller/attachments";
import { useAttachmentDrafts } from "../useAttachmentDrafts";
import { AttachmentChip } from "./AttachmentChip";
import { IconButton } from "./IconButton";

/** The files of a message being written, as chips, and what the server refused of them. */
export function AttachmentDraftList({ drafts }: { drafts: AttachmentDrafts }) {
  const { drafts: files, errors } = useAttachmentDrafts(drafts);
  if (files.length === 0 && errors.length === 0) return null;
  return (
    <div className="pc-attachment-drafts">
      {files.length > 0 && (
        <ul className="pc-attachment-list" aria-label="Attached files">
          {files.map((draft) => (
            <AttachmentChip key={draft.key} draft={draft} onRemove={drafts.remove} />
          ))}
        </ul>
      )}
      {errors.length > 0 && (
        <ul className="pc-attachment-errors" role="alert">
          {errors.map((error) => (
            <li key={error.key} className="pc-attachment-error">
              <span>
                <strong>{error.name}</strong>: {error.message}
              </span>
              <IconButton
                icon={X}
                label={`Dismiss the error about ${error.name}`}
                onClick={() => {
                  drafts.dismissError(error.key);
                }}
              />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
