import { Button } from "@pagechat/react";
import { useMemo, useState, type SubmitEvent } from "react";
import type { PagePayloadHandler, PayloadConversation } from "@pagechat/react";
import { usePageChat } from "../../app/pageChat";
import { navigate } from "../../app/router";
import { Notice, type NoticeProps } from "../components/Notice";
import { Welcome } from "../components/Welcome";
import { addTopics, cleanDraft, draftFromTemplate, emptyDraft, type StreamDraft } from "../draft";
import { PresentationFields } from "../form/PresentationFields";
import { RetrievalFields } from "../form/RetrievalFields";
import { SemanticFields } from "../form/SemanticFields";
import type { PagePayloadType, PageServerAction } from "../generated/api";
import type { StreamTemplate } from "../generated/payloads.gen";
import { CARD_ACTIONS } from "../globalPayloads";
import { useHorizonApi } from "../HorizonContext";
import { pageActions } from "../payloadHandler";
import { paths } from "../paths";

/** A draft handed over by the page that navigated here (a stream idea), else an empty one. */
function initialDraft(): StreamDraft {
  const state: unknown = window.history.state;
  if (typeof state === "object" && state !== null && "draft" in state) {
    const draft = state.draft as StreamDraft;
    if (typeof draft.name === "string" && typeof draft.semantic_space === "object") return draft;
  }
  return emptyDraft();
}

function streamIdOf(data: unknown): number | null {
  if (typeof data !== "object" || data === null || !("stream_id" in data)) return null;
  return typeof data.stream_id === "number" ? data.stream_id : null;
}

/** A form for a new stream, which the assistant can draft: a template, topics, a check. */
export function NewStreamPage() {
  const api = useHorizonApi();
  const [draft, setDraft] = useState(initialDraft);
  const [saving, setSaving] = useState(false);
  const [notice, setNotice] = useState<Omit<NoticeProps, "onDismiss"> | null>(null);

  const context = useMemo(() => ({ current_page: "new_stream", stream: draft }), [draft]);

  const payloadHandlers = useMemo((): Partial<Record<PagePayloadType<"new_stream">, PagePayloadHandler>> => {
    /** A success notice whose Undo puts the form back as it was before the accept. */
    const undoable = (text: string, previous: StreamDraft, conversation: PayloadConversation): Omit<NoticeProps, "onDismiss"> => ({
      tone: "success",
      text,
      action: {
        label: "Undo",
        run: () => {
          setDraft(previous);
          setNotice({ tone: "info", text: "Undone: the form is as it was." });
          // The conversation follows: its card is shown as rejected, no longer accepted.
          void conversation.decide("rejected");
        },
      },
    });
    return {
      stream_template: pageActions("stream_template", {
        onAccept: (data, conversation) => {
          setNotice(undoable(`Filled the form from the template “${data.name}”. Review it, then create the stream.`, draft, conversation));
          setDraft(draftFromTemplate(data));
        },
        actions: {
          [CARD_ACTIONS.createStream]: async (data: StreamTemplate, conversation: PayloadConversation): Promise<string | null> => {
            const action: PageServerAction<"new_stream"> = "create_stream_from_template";
            try {
              // In the card's conversation: the chat records the stream it created.
              const result = await conversation.runAction(action, { ...data });
              const id = streamIdOf(result.data);
              if (!result.ok || id === null) return result.message || "The stream could not be created.";
              navigate(paths.stream(id), { replace: true });
              return null;
            } catch (e) {
              return e instanceof Error ? e.message : "The stream could not be created.";
            }
          },
        },
      }),
      topic_suggestions: pageActions("topic_suggestions", {
        onAccept: (data, conversation) => {
          setNotice(undoable(`Added ${String(data.topics.length)} suggested topic${data.topics.length === 1 ? "" : "s"}.`, draft, conversation));
          setDraft((d) => addTopics(d, data.topics));
        },
      }),
    };
    // Remade with the draft: an accept's Undo goes back to the form as it was then.
  }, [draft]);

  const chat = useMemo(
    () => ({
      context,
      payloadHandlers,
      welcome: (
        <Welcome
          about="I see the draft in the form, and can fill it for you."
          tries={["Suggest a template for CRISPR base editing", "Suggest topics", "Is my draft ready?"]}
        />
      ),
      // The notices of an accepted proposal (not a failed Create) are shown in the tray too.
      notice:
        notice === null || notice.tone === "error" ? undefined : (
          <Notice
            {...notice}
            live={false}
            onDismiss={() => {
              setNotice(null);
            }}
          />
        ),
    }),
    [context, payloadHandlers, notice],
  );
  usePageChat(chat);

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSaving(true);
    setNotice(null);
    api.call("POST /api/horizon/streams", { body: cleanDraft(draft) }).then(
      (stream) => {
        navigate(paths.stream(stream.id), { replace: true, state: { created: true } });
      },
      (e: unknown) => {
        setSaving(false);
        setNotice({ tone: "error", text: `The stream was not created: ${e instanceof Error ? e.message : String(e)}` });
      },
    );
  };

  return (
    <section className="hz-page" aria-labelledby="new-stream-title">
      <header className="hz-page-header">
        <h1 id="new-stream-title">New research stream</h1>
      </header>
      <p className="hz-lead">Describe what to follow. The assistant can draft it for you: ask it for a template or topics.</p>
      {notice !== null && (
        <Notice
          {...notice}
          onDismiss={() => {
            setNotice(null);
          }}
        />
      )}
      <form className="hz-form" aria-label="New stream" onSubmit={submit}>
        <section className="hz-form-section" aria-labelledby="semantic-title">
          <h2 id="semantic-title">What the stream is about</h2>
          <SemanticFields draft={draft} onChange={setDraft} />
        </section>
        <section className="hz-form-section" aria-labelledby="retrieval-title">
          <h2 id="retrieval-title">How articles are found</h2>
          <RetrievalFields draft={draft} onChange={setDraft} />
        </section>
        <section className="hz-form-section" aria-labelledby="presentation-title">
          <h2 id="presentation-title">How reports group articles</h2>
          <PresentationFields draft={draft} onChange={setDraft} />
        </section>
        <div className="hz-form-footer">
          <Button type="submit" variant="primary" disabled={saving || draft.name.trim() === ""}>
            {saving ? "Creating…" : "Create stream"}
          </Button>
          <Button
            variant="secondary"
            onClick={() => {
              navigate(paths.streams());
            }}
          >
            Cancel
          </Button>
        </div>
      </form>
    </section>
  );
}
