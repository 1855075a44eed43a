import { Button } from "@pagechat/react";
import { useEffect, useMemo, useRef, useState } from "react";
import type { ActionResult, ClientActionHandler, PagePayloadHandler, PayloadConversation } from "@pagechat/react";
import { usePageChat } from "../../app/pageChat";
import { Link, navigate, useLocation } from "../../app/router";
import { LoadState } from "../components/LoadState";
import { Notice, type NoticeProps } from "../components/Notice";
import { TabBar } from "../components/TabBar";
import { Welcome } from "../components/Welcome";
import { applySchemaChanges, cleanDraft, draftOf, isTab, tabOfField, withCategories, withQueries, type StreamDraft, type Tab } from "../draft";
import { PresentationFields } from "../form/PresentationFields";
import { RetrievalFields } from "../form/RetrievalFields";
import { SemanticFields } from "../form/SemanticFields";
import type { PageClientAction, PagePayloadType, PageServerAction } from "../generated/api";
import { CARD_ACTIONS } from "../globalPayloads";
import { pageActions } from "../payloadHandler";
import { useHorizonApi } from "../HorizonContext";
import { paths } from "../paths";
import { asStream, useEditedStream } from "../useEditedStream";

const TAB_TITLES: readonly { id: Tab; title: string }[] = [
  { id: "semantic", title: "Semantic space" },
  { id: "retrieval", title: "Retrieval" },
  { id: "presentation", title: "Presentation" },
];

const TRIES: Record<Tab, string[]> = {
  semantic: ["Propose a schema for this stream", "Validate this stream"],
  retrieval: ["Suggest retrieval queries", "Validate this stream"],
  presentation: ["Which categories should I use?", "Validate this stream"],
};

/** A notice of the page; `assistant`: about what an assistant action did (shown in the tray too). */
type PageNotice = Omit<NoticeProps, "onDismiss"> & { assistant?: boolean };

function noticeProps(notice: PageNotice): Omit<NoticeProps, "onDismiss"> {
  return { tone: notice.tone, text: notice.text, action: notice.action };
}

/** One stream's three layers, a tab each; the assistant proposes changes to the open tab. */
export function EditStreamPage({ id }: { id: number }) {
  const location = useLocation();
  const tabParam = location.search.get("tab");
  const tab: Tab = isTab(tabParam) ? tabParam : "semantic";
  const edited = useEditedStream(id);
  const { saved, draft, unsaved, setDraft, setSaved } = edited;
  const [notice, setNotice] = useState<PageNotice | null>(() =>
    (window.history.state as { created?: unknown } | null)?.created === true ? { tone: "success", text: "Stream created." } : null,
  );
  const [saving, setSaving] = useState(false);
  const api = useHorizonApi();

  const selectTab = (next: Tab) => {
    navigate(paths.stream(id, next), { replace: true });
  };

  const context = useMemo(
    () => ({ current_page: "edit_stream", active_tab: tab, stream_id: id, stream: draft, has_unsaved_changes: unsaved }),
    [tab, id, draft, unsaved],
  );

  const payloadHandlers = useMemo((): Record<PagePayloadType<"edit_stream">, PagePayloadHandler> => {
    /**
     * Changes the form, then saves the accepted proposal through its server action, run in the
     * card's conversation so the chat records it as it would a chat button's.
     */
    const accept = (
      conversation: PayloadConversation,
      action: PageServerAction<"edit_stream">,
      data: object,
      change: (d: StreamDraft) => StreamDraft,
      what: string,
    ) => {
      // The stream as saved before this accept: what its Undo puts back.
      const before = saved === null ? null : draftOf(saved);
      setDraft(change);
      conversation.runAction(action, { ...data }).then(
        (result: ActionResult) => {
          const stream = asStream(result.data);
          if (result.ok && stream !== null) {
            setSaved(stream);
            setNotice({
              tone: "success",
              text: `Accepted the ${what} and saved it to the stream.`,
              action: before === null ? undefined : { label: "Undo", run: () => { undo(before, what, conversation); } },
              assistant: true,
            });
          } else {
            setNotice({ tone: "error", text: `The form has the ${what}, but saving it failed: ${result.message}. Use Save to try again.` });
          }
        },
        (e: unknown) => {
          setNotice({ tone: "error", text: `The form has the ${what}, but saving it failed: ${e instanceof Error ? e.message : String(e)}` });
        },
      );
    };
    /** Puts back the fields the accept changed (the stream as it was saved before) and saves it. */
    const undo = (before: StreamDraft, what: string, conversation: PayloadConversation) => {
      setDraft((d) => ({ ...d, ...before }));
      api.call("PATCH /api/horizon/streams/{stream_id}", { path: { stream_id: id }, body: cleanDraft(before) }).then(
        (stream) => {
          setSaved(stream);
          setNotice({ tone: "info", text: `Undone: the ${what} are no longer in the stream.`, assistant: true });
          // The conversation follows: its card is shown as rejected, no longer accepted.
          void conversation.decide("rejected");
        },
        (e: unknown) => {
          setNotice({ tone: "error", text: `Not undone: ${e instanceof Error ? e.message : String(e)}` });
        },
      );
    };
    return {
      schema_proposal: pageActions("schema_proposal", {
        onAccept: (data, conversation) => {
          accept(conversation, "apply_schema_proposal", data, (d) => applySchemaChanges(d, data.proposed_changes), "proposed changes");
        },
      }),
      retrieval_proposal: pageActions("retrieval_proposal", {
        onAccept: (data, conversation) => {
          accept(conversation, "apply_retrieval_proposal", data, (d) => withQueries(d, data.queries), "proposed queries");
        },
      }),
      presentation_categories: pageActions("presentation_categories", {
        onAccept: (data, conversation) => {
          accept(conversation, "apply_presentation_categories", data, (d) => withCategories(d, data.categories), "proposed categories");
        },
      }),
      validation_results: pageActions("validation_results", {
        actions: {
          [CARD_ACTIONS.openField]: (field: string) => {
            const where = tabOfField(field);
            if (where) navigate(paths.stream(id, where), { replace: true });
          },
        },
      }),
    };
  }, [api, id, saved, setDraft, setSaved]);

  // A request made on the wrong tab, asked again once its tab is open (switch_tab's `then`).
  const pendingAsk = useRef<{ tab: Tab; text: string; send: (text: string, context: Record<string, unknown>) => void } | null>(null);
  const clientActions = useMemo(
    (): Record<Exclude<PageClientAction<"edit_stream">, "close_chat">, ClientActionHandler> => ({
      switch_tab: (data, { send }) => {
        const name = data?.tab_name;
        if (!isTab(name)) return;
        const then = data?.then;
        pendingAsk.current = typeof then === "string" && then.trim() !== "" ? { tab: name, text: then, send } : null;
        navigate(paths.stream(id, name), { replace: true });
      },
    }),
    [id],
  );
  // Sent with this render's context: the tray hears of the new tab only after this effect.
  useEffect(() => {
    const ask = pendingAsk.current;
    if (ask === null || ask.tab !== tab) return;
    pendingAsk.current = null;
    ask.send(ask.text, context);
  }, [tab, context]);

  const chat = useMemo(
    () => ({
      context,
      payloadHandlers,
      clientActions,
      welcome: <Welcome about="I see this stream as the form shows it, unsaved edits included." tries={TRIES[tab]} />,
      notice: notice?.assistant ? <Notice {...noticeProps(notice)} live={false} onDismiss={() => { setNotice(null); }} /> : undefined,
    }),
    [context, payloadHandlers, clientActions, tab, notice],
  );
  usePageChat(chat);

  if (edited.loadError !== null) {
    return (
      <section className="hz-page">
        <LoadState state={{ status: "error", data: null, error: edited.loadError }} what="this stream" onRetry={edited.reload}>
          {() => null}
        </LoadState>
      </section>
    );
  }
  if (saved === null || draft === null) {
    return (
      <section className="hz-page">
        <p className="hz-muted" role="status">
          Loading the stream…
        </p>
      </section>
    );
  }

  const save = () => {
    setSaving(true);
    edited.save().then(
      () => {
        setSaving(false);
        setNotice({ tone: "success", text: "Saved." });
      },
      (e: unknown) => {
        setSaving(false);
        setNotice({ tone: "error", text: `Not saved: ${e instanceof Error ? e.message : String(e)}` });
      },
    );
  };

  const change = (next: StreamDraft) => {
    setDraft(() => next);
  };

  return (
    <section className="hz-page" aria-labelledby="edit-stream-title">
      <header className="hz-page-header">
        <div>
          <p className="hz-breadcrumb">
            <Link to={paths.streams()}>Streams</Link> /
          </p>
          <h1 id="edit-stream-title">{saved.name}</h1>
        </div>
        {saved.report_count > 0 && (
          <Link to={paths.streamReports(id)} className="hz-button">
            Reports ({saved.report_count})
          </Link>
        )}
      </header>
      {notice !== null && (
        <Notice
          {...noticeProps(notice)}
          onDismiss={() => {
            setNotice(null);
          }}
        />
      )}
      <TabBar label="Stream layers" tabs={TAB_TITLES} active={tab} onSelect={selectTab} panelId="layer" />
      <form
        className="hz-form"
        aria-label="Edit stream"
        onSubmit={(e) => {
          e.preventDefault();
          save();
        }}
      >
        <div role="tabpanel" id={`layer-${tab}`} aria-labelledby={`layer-tab-${tab}`} className="hz-form-section">
          {tab === "semantic" && <SemanticFields draft={draft} onChange={change} />}
          {tab === "retrieval" && <RetrievalFields draft={draft} onChange={change} />}
          {tab === "presentation" && <PresentationFields draft={draft} onChange={change} />}
        </div>
        <div className="hz-form-footer" data-unsaved={unsaved || undefined}>
          <span className="hz-save-state" aria-live="polite">
            {unsaved ? "Unsaved changes" : "All changes saved"}
          </span>
          <Button type="submit" variant="primary" disabled={!unsaved || saving || draft.name.trim() === ""}>
            {saving ? "Saving…" : "Save"}
          </Button>
          <Button variant="secondary" disabled={!unsaved || saving} onClick={edited.discard}>
            Discard changes
          </Button>
        </div>
      </form>
    </section>
  );
}
