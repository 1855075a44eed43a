import { useMemo, useState } from "react";
import type { ActionResult, ClientActionHandler, PayloadConversation, PayloadHandler } from "../../chat";
import { usePageChat } from "../../app/pageChat";
import { Link, navigate, useLocation } from "../../app/router";
import { PresentationCategoriesCard } from "../cards/PresentationCategoriesCard";
import { RetrievalProposalCard } from "../cards/RetrievalProposalCard";
import { SchemaProposalCard } from "../cards/SchemaProposalCard";
import { ValidationCard } from "../cards/ValidationCard";
import { Notice, type NoticeProps } from "../components/Notice";
import { TabBar } from "../components/TabBar";
import { Welcome } from "../components/Welcome";
import { applySchemaChanges, isTab, tabOfField, withCategories, withQueries, type StreamDraft, type Tab } from "../draft";
import { PresentationFields } from "../form/PresentationFields";
import { RetrievalFields } from "../form/RetrievalFields";
import { SemanticFields } from "../form/SemanticFields";
import type { PageClientAction, PagePayloadType, PageServerAction } from "../generated/api";
import { payloadHandler } from "../payloadHandler";
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

type PageNotice = Omit<NoticeProps, "onDismiss">;

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

  const selectTab = (next: Tab) => {
    navigate(paths.stream(id, next), { replace: true });
  };

  const context = useMemo(
    () => ({ current_page: "edit_stream", active_tab: tab, stream_id: id, stream: draft, has_unsaved_changes: unsaved }),
    [tab, id, draft, unsaved],
  );

  const payloadHandlers = useMemo((): Record<PagePayloadType<"edit_stream">, PayloadHandler> => {
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
      setDraft(change);
      conversation.runAction(action, { ...data }).then(
        (result: ActionResult) => {
          const stream = asStream(result.data);
          if (result.ok && stream !== null) {
            setSaved(stream);
            setNotice({ tone: "success", text: `Accepted the ${what} and saved it to the stream.` });
          } else {
            setNotice({ tone: "error", text: `The form has the ${what}, but saving it failed: ${result.message}. Use Save to try again.` });
          }
        },
        (e: unknown) => {
          setNotice({ tone: "error", text: `The form has the ${what}, but saving it failed: ${e instanceof Error ? e.message : String(e)}` });
        },
      );
    };
    const current = draft;
    return {
      schema_proposal: payloadHandler("schema_proposal", {
        render: (data, callbacks) =>
          current && <SchemaProposalCard data={data} current={current} callbacks={callbacks} />,
        onAccept: (data, conversation) => {
          accept(conversation, "apply_schema_proposal", data, (d) => applySchemaChanges(d, data.proposed_changes), "proposed changes");
        },
        renderOptions: { headerTitle: "Schema proposal", headerIcon: "🧭", panelWidth: "480px" },
      }),
      retrieval_proposal: payloadHandler("retrieval_proposal", {
        render: (data, callbacks) =>
          current && <RetrievalProposalCard data={data} current={current.retrieval_config.queries} callbacks={callbacks} />,
        onAccept: (data, conversation) => {
          accept(conversation, "apply_retrieval_proposal", data, (d) => withQueries(d, data.queries), "proposed queries");
        },
        renderOptions: { headerTitle: "Retrieval proposal", headerIcon: "🔎", panelWidth: "480px" },
      }),
      presentation_categories: payloadHandler("presentation_categories", {
        render: (data, callbacks) =>
          current && (
            <PresentationCategoriesCard data={data} current={current.presentation_config.categories} callbacks={callbacks} />
          ),
        onAccept: (data, conversation) => {
          accept(conversation, "apply_presentation_categories", data, (d) => withCategories(d, data.categories), "proposed categories");
        },
        renderOptions: { headerTitle: "Report categories", headerIcon: "🗂️", panelWidth: "460px" },
      }),
      validation_results: payloadHandler("validation_results", {
        render: (data, callbacks) => (
          <ValidationCard
            data={data}
            callbacks={callbacks}
            onField={(field) => {
              const where = tabOfField(field);
              if (where) navigate(paths.stream(id, where), { replace: true });
            }}
          />
        ),
        renderOptions: { headerTitle: "Stream check", headerIcon: "✅", panelWidth: "420px" },
      }),
    };
  }, [draft, id, setDraft, setSaved]);

  const clientActions = useMemo(
    (): Record<Exclude<PageClientAction<"edit_stream">, "close_chat">, ClientActionHandler> => ({
      switch_tab: (data) => {
        const name = data?.tab_name;
        if (isTab(name)) navigate(paths.stream(id, name), { replace: true });
      },
    }),
    [id],
  );

  const chat = useMemo(
    () => ({
      context,
      payloadHandlers,
      clientActions,
      welcome: <Welcome about="I see this stream as the form shows it, unsaved edits included." tries={TRIES[tab]} />,
    }),
    [context, payloadHandlers, clientActions, tab],
  );
  usePageChat(chat);

  if (edited.loadError !== null) {
    return (
      <section className="hz-page">
        <div className="hz-error" role="alert">
          <p>Could not load this stream: {edited.loadError.message}</p>
          <div className="hz-row">
            <button type="button" onClick={edited.reload}>
              Retry
            </button>
            <Link to={paths.streams()}>All streams</Link>
          </div>
        </div>
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
          {...notice}
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
          <button type="submit" data-style="primary" disabled={!unsaved || saving || draft.name.trim() === ""}>
            {saving ? "Saving…" : "Save"}
          </button>
          <button type="button" disabled={!unsaved || saving} onClick={edited.discard}>
            Discard changes
          </button>
        </div>
      </form>
    </section>
  );
}
