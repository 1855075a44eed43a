import { FileText } from "lucide-react";
import { hasThumbnail } from "../attachments";
import type { AttachmentRef } from "../types";
import { AttachmentLabel } from "./AttachmentLabel";
import { useAttachmentSource } from "./AttachmentSource";
import { AttachmentThumbnail } from "./AttachmentThumbnail";

/** The files sent with a message, each a link that downloads it: a thumbnail for an image. */
export function MessageAttachments({ attachments }: { attachments: AttachmentRef[] }) {
  const source = useAttachmentSource();
  if (attachments.length === 0) return null;
  return (
    <ul className="pc-attachment-list pc-message-attachments" aria-label="Attachments">
      {attachments.map((a) => (
        <li key={a.id}>
          <a className="pc-attachment" href={source.attachmentUrl(a.id)} download={a.name} data-kind={hasThumbnail(a.media_type) ? "image" : "file"}>
            {hasThumbnail(a.media_type) ? (
              <AttachmentThumbnail preview={null} id={a.id} />
            ) : (
              <FileText className="pc-attachment-icon" size={20} aria-hidden="true" focusable="false" />
            )}
            <AttachmentLabel name={a.name} media_type={a.media_type} size={a.size} />
          </a>
        </li>
      ))}
    </ul>
  );
}
