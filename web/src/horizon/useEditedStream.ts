// One stream being edited: the saved version, the form's draft, saving, and loading.
import { useCallback, useEffect, useMemo, useState } from "react";
import { draftOf, sameDraft, cleanDraft, type StreamDraft } from "./draft";
import type { StreamPublic } from "./generated/api";
import { useHorizonApi } from "./HorizonContext";

export interface EditedStream {
  saved: StreamPublic | null;
  draft: StreamDraft | null;
  loadError: Error | null;
  unsaved: boolean;
  setDraft: (update: (draft: StreamDraft) => StreamDraft) => void;
  /** The server saved a new version (a server action did): the form keeps its other edits. */
  setSaved: (stream: StreamPublic) => void;
  save: () => Promise<void>;
  discard: () => void;
  reload: () => void;
}

/** A stream as the API answers it, from an action's result data (or null). */
export function asStream(data: unknown): StreamPublic | null {
  if (typeof data !== "object" || data === null) return null;
  const s = data as Partial<StreamPublic>;
  return typeof s.id === "number" && typeof s.name === "string" && typeof s.semantic_space === "object" ? (data as StreamPublic) : null;
}

export function useEditedStream(id: number): EditedStream {
  const api = useHorizonApi();
  const [saved, setSavedState] = useState<StreamPublic | null>(null);
  const [draft, setDraftState] = useState<StreamDraft | null>(null);
  const [loadError, setLoadError] = useState<Error | null>(null);
  const [round, setRound] = useState(0);

  useEffect(() => {
    let live = true;
    api.call("GET /api/horizon/streams/{stream_id}", { path: { stream_id: id } }).then(
      (stream) => {
        if (!live) return;
        setSavedState(stream);
        setDraftState(draftOf(stream));
        setLoadError(null);
      },
      (e: unknown) => {
        if (live) setLoadError(e instanceof Error ? e : new Error(String(e)));
      },
    );
    return () => {
      live = false;
    };
  }, [api, id, round]);

  const setDraft = useCallback((update: (draft: StreamDraft) => StreamDraft) => {
    setDraftState((d) => (d === null ? d : update(d)));
  }, []);

  const save = useCallback(async () => {
    if (draft === null) return;
    const stream = await api.call("PATCH /api/horizon/streams/{stream_id}", { path: { stream_id: id }, body: cleanDraft(draft) });
    setSavedState(stream);
    setDraftState(draftOf(stream));
  }, [api, id, draft]);

  const discard = useCallback(() => {
    if (saved !== null) setDraftState(draftOf(saved));
  }, [saved]);

  const reload = useCallback(() => {
    setRound((r) => r + 1);
  }, []);

  const unsaved = useMemo(() => saved !== null && draft !== null && !sameDraft(draft, draftOf(saved)), [saved, draft]);

  return { saved, draft, loadError, unsaved, setDraft, setSaved: setSavedState, save, discard, reload };
}
