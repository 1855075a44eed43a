// A thin React hook over AttachmentDrafts: its state, kept in step with the store.
import { useSyncExternalStore } from "react";
import type { AttachmentDrafts, AttachmentDraftsState } from "./controller/attachments";

/** The files of a message being written, as they upload. */
export function useAttachmentDrafts(drafts: AttachmentDrafts): AttachmentDraftsState {
  return useSyncExternalStore(drafts.subscribe, drafts.getState, drafts.getState);
}
