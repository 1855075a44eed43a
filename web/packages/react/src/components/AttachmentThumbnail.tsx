import { useEffect, useState } from "react";
import { useAttachmentSource } from "./AttachmentSource";

export interface AttachmentThumbnailProps {
  /** An object URL of the file itself (unsent), else the stored attachment's id. */
  preview: string | null;
  id: string | null;
}

/**
 * An image attachment, small. A stored one is read from its address with the session cookie;
 * where that is refused (a client signed in with a token, not a cookie) its bytes are fetched
 * with the client's credentials instead. Decorative: the name beside it says what it is.
 */
export function AttachmentThumbnail({ preview, id }: AttachmentThumbnailProps) {
  const source = useAttachmentSource();
  const [fetched, setFetched] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(
    () => () => {
      if (fetched !== null) URL.revokeObjectURL(fetched);
    },
    [fetched],
  );
  const src = preview ?? fetched ?? (id === null ? null : source.attachmentUrl(id));
  if (src === null || (failed && fetched === null && preview === null)) return <span className="pc-attachment-thumb" aria-hidden="true" />;
  const onError = () => {
    if (preview !== null || fetched !== null || id === null || failed) return;
    setFailed(true);
    source
      .fetchAttachment(id)
      .then((blob) => {
        setFetched(URL.createObjectURL(blob));
      })
      .catch(() => undefined);
  };
  return <img className="pc-attachment-thumb" src={src} alt="" loading="lazy" decoding="async" onError={onError} />;
}
