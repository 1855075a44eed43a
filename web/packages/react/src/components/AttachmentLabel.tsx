import { humanSize, typeLabel } from "../attachments";

export interface AttachmentLabelProps {
  name: string;
  media_type: string;
  size: number;
  /** Shown instead of the type and size (an upload under way). */
  note?: string;
}

/** A file's name, and under it its type and size ("PDF · 1.2 MB"). */
export function AttachmentLabel({ name, media_type, size, note }: AttachmentLabelProps) {
  return (
    <span className="pc-attachment-text">
      <span className="pc-attachment-name" title={name}>
        {name}
      </span>
      <span className="pc-attachment-meta">{note ?? `${typeLabel(media_type, name)} · ${humanSize(size)}`}</span>
    </span>
  );
}
