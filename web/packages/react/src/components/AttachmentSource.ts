import { createContext, useContext } from "react";
import type { ChatApi } from "../api";

/** Where a stored attachment's bytes are, and how to fetch them with the client's credentials. */
export type AttachmentSource = Pick<ChatApi, "attachmentUrl" | "fetchAttachment">;

/** The tray's client, for the attachments it shows; outside a tray, the page's own origin. */
export const AttachmentSourceContext = createContext<AttachmentSource | null>(null);

const sameOrigin: AttachmentSource = {
  attachmentUrl: (id) => `/api/attachments/${encodeURIComponent(id)}`,
  fetchAttachment: async (id) => {
    const response = await fetch(`/api/attachments/${encodeURIComponent(id)}`, { credentials: "same-origin" });
    if (!response.ok) throw new Error(`attachment ${id}: ${String(response.status)}`);
    return response.blob();
  },
};

/** The source of the attachments shown here. */
export function useAttachmentSource(): AttachmentSource {
  return useContext(AttachmentSourceContext) ?? sameOrigin;
}
