import { X } from "lucide-react";
import type { AttachmentDrafts } from "../controller/attachments";
import { useAttachmentDrafts } from "../useAttachmentDrafts";
import { AttachmentChip } from "./AttachmentChip";
import { IconButton } from "./IconButton";

/** The files of a message being written, as chips, and what the server refused of them. */
export function AttachmentDraftList({ drafts }: { drafts: AttachmentDrafts }) {
  const { drafts: files, errors } = useAttachmentDrafts(drafts);
  // Told to screen readers as it changes (a live region must be there before its words are).
  const status = <p className="pc-visually-hidden" role="status">{summary(files.length, files.filter((f) => f.stored === null).length)}</p>;
  if (files.length === 0 && errors.length === 0) return status;
  return (
    <div className="pc-attachment-drafts">
      {status}
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

function summary(count: number, uploading: number): string {
  if (count === 0) return "";
  const files = count === 1 ? "1 file" : `${String(count)} files`;
  return uploading === 0 ? `${files} attached` : `${files} attached, ${String(uploading)} uploading`;
}
