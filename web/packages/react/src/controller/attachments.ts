// The files of a message being written: each uploads as soon as it is added, shows a chip
// (a thumbnail from the file itself while unsent), and can be removed before the message is
// sent. A plain store with its own listeners, no React (`useAttachmentDrafts` is the hook).
import type { ChatApi } from "../api";
import { hasThumbnail } from "../attachments";
import type { AttachmentRef } from "../types";
import { errorMessage } from "./errors";

/** One file of the message being written. */
export interface AttachmentDraft {
  /** This draft's own key (a file has no id before the server stores it). */
  key: string;
  name: string;
  media_type: string;
  size: number;
  /** An object URL of the file itself, for its thumbnail while it is unsent; null for other files. */
  preview: string | null;
  /** What the server stored; null while uploading. */
  stored: AttachmentRef | null;
  /** False for a file the message had already (an edit): removing it does not delete it. */
  owned: boolean;
}

/** A file the server refused (too big, too many, a type it does not take), and why. */
export interface AttachmentError {
  key: string;
  name: string;
  message: string;
}

export interface AttachmentDraftsState {
  drafts: AttachmentDraft[];
  errors: AttachmentError[];
  /** True while a file is still uploading: the message waits for it. */
  pending: boolean;
}

/** Object URLs of files (the browser's; tests give their own). */
export interface PreviewUrls {
  create(file: File): string | null;
  revoke(url: string): void;
}

const browserPreviews: PreviewUrls = {
  create: (file) => (typeof URL.createObjectURL === "function" ? URL.createObjectURL(file) : null),
  revoke: (url) => {
    if (typeof URL.revokeObjectURL === "function") URL.revokeObjectURL(url);
  },
};

export interface AttachmentDraftsOptions {
  api: Pick<ChatApi, "uploadAttachment" | "deleteAttachment">;
  /** Attachments the message has already (editing a sent message). */
  initial?: AttachmentRef[];
  previews?: PreviewUrls;
}

// What a refusal says when the server (or a proxy before it) gave no words of its own.
const UPLOAD_FALLBACKS: Record<number, string> = {
  413: "The file is too large.",
  415: "This type of file cannot be attached.",
  429: "Too many files for now. Please try again later.",
};

const EMPTY: AttachmentDraftsState = { drafts: [], errors: [], pending: false };

/** The files of one message being written, and their uploads. */
export class AttachmentDrafts {
  private readonly api: AttachmentDraftsOptions["api"];
  private readonly previews: PreviewUrls;
  private state: AttachmentDraftsState = EMPTY;
  private readonly listeners = new Set<() => void>();
  private readonly uploads = new Map<string, AbortController>();
  private nextKey = 0;

  constructor(options: AttachmentDraftsOptions) {
    this.api = options.api;
    this.previews = options.previews ?? browserPreviews;
    const initial = (options.initial ?? []).map((stored) => ({ ...stored, key: this.key(), preview: null, stored, owned: false }));
    if (initial.length > 0) this.state = { drafts: initial, errors: [], pending: false };
  }

  getState = (): AttachmentDraftsState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  /** Adds files and uploads each at once; the errors of earlier ones are cleared. */
  add = (files: Iterable<File>): void => {
    const added: [AttachmentDraft, File][] = [];
    for (const file of files) {
      const mediaType = file.type || "application/octet-stream";
      const preview = hasThumbnail(mediaType) ? this.previews.create(file) : null;
      const draft = { key: this.key(), name: file.name || "file", media_type: mediaType, size: file.size, preview, stored: null, owned: true };
      added.push([draft, file]);
    }
    if (added.length === 0) return;
    this.set([...this.state.drafts, ...added.map(([draft]) => draft)], []);
    for (const [draft, file] of added) void this.upload(draft.key, file);
  };

  /** Removes a file before sending: an upload under way stops, a file uploaded for this message is deleted. */
  remove = (key: string): void => {
    const draft = this.state.drafts.find((d) => d.key === key);
    if (draft === undefined) return;
    this.forget(draft);
    if (draft.owned && draft.stored !== null) this.deleteQuietly(draft.stored.id);
    this.set(
      this.state.drafts.filter((d) => d.key !== key),
      this.state.errors,
    );
  };

  /** Forgets one error shown. */
  dismissError = (key: string): void => {
    this.set(
      this.state.drafts,
      this.state.errors.filter((e) => e.key !== key),
    );
  };

  /**
   * The uploaded files, for the message being sent, and a fresh start: they now belong to that
   * message. Null while a file is still uploading (the message must wait for it).
   */
  take = (): AttachmentRef[] | null => {
    if (this.state.pending) return null;
    const taken = this.state.drafts.flatMap((d) => (d.stored === null ? [] : [d.stored]));
    for (const draft of this.state.drafts) this.forget(draft);
    this.state = EMPTY;
    this.notify();
    return taken;
  };

  /** Drops every file (an edit cancelled): uploads stop and the files uploaded here are deleted. */
  discard = (): void => {
    for (const draft of this.state.drafts) {
      this.forget(draft);
      if (draft.owned && draft.stored !== null) this.deleteQuietly(draft.stored.id);
    }
    this.state = EMPTY;
    this.notify();
  };

  private async upload(key: string, file: File): Promise<void> {
    const abort = new AbortController();
    this.uploads.set(key, abort);
    let stored: AttachmentRef;
    try {
      stored = await this.api.uploadAttachment(file, abort.signal);
    } catch (error) {
      if (abort.signal.aborted || !this.uploads.has(key)) return;
      this.uploads.delete(key);
      const draft = this.state.drafts.find((d) => d.key === key);
      if (draft?.preview != null) this.previews.revoke(draft.preview);
      const message = errorMessage(error, "The file could not be uploaded.", UPLOAD_FALLBACKS);
      this.set(
        this.state.drafts.filter((d) => d.key !== key),
        [...this.state.errors, { key, name: file.name || "file", message }],
      );
      return;
    }
    // Removed while it uploaded: the server kept it anyway, so it is deleted now.
    if (!this.uploads.has(key)) {
      this.deleteQuietly(stored.id);
      return;
    }
    this.uploads.delete(key);
    this.set(
      this.state.drafts.map((d) => (d.key === key ? this.uploaded(d, stored) : d)),
      this.state.errors,
    );
  }

  /** The draft once stored: the server's name and type (sniffed from the bytes) replace the browser's. */
  private uploaded(draft: AttachmentDraft, stored: AttachmentRef): AttachmentDraft {
    let preview = draft.preview;
    if (preview !== null && !hasThumbnail(stored.media_type)) {
      this.previews.revoke(preview);
      preview = null;
    }
    return { ...draft, name: stored.name, media_type: stored.media_type, size: stored.size, preview, stored };
  }

  /** Stops the draft's upload and frees its thumbnail. */
  private forget(draft: AttachmentDraft): void {
    this.uploads.get(draft.key)?.abort();
    this.uploads.delete(draft.key);
    if (draft.preview !== null) this.previews.revoke(draft.preview);
  }

  private deleteQuietly(id: string): void {
    // A file left behind is removed by the server's retention; nothing to tell the user.
    this.api.deleteAttachment(id).catch(() => undefined);
  }

  private key(): string {
    this.nextKey += 1;
    return `attachment-${String(this.nextKey)}`;
  }

  private set(drafts: AttachmentDraft[], errors: AttachmentError[]): void {
    this.state = { drafts, errors, pending: drafts.some((d) => d.stored === null) };
    this.notify();
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }
}
