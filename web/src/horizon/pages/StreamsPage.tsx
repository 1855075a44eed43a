import { useCallback, useMemo } from "react";
import type { ClientActionHandler, PagePayloadHandler } from "@pagechat/react";
import { usePageChat } from "../../app/pageChat";
import { Link, navigate } from "../../app/router";
import { LoadState } from "../components/LoadState";
import { StreamCard } from "../components/StreamCard";
import { Welcome } from "../components/Welcome";
import { draftFromIdea } from "../draft";
import type { PageClientAction, PagePayloadType, StreamPublic } from "../generated/api";
import { useHorizonApi } from "../HorizonContext";
import { pageActions } from "../payloadHandler";
import { paths } from "../paths";
import { useLoad } from "../../app/useLoad";

const NO_STREAMS: StreamPublic[] = [];

/** The streams page's state as its chat page reads it (horizon/pages/streams.py). */
function streamsContext(streams: StreamPublic[]) {
  return {
    current_page: "streams",
    streams: streams.map((s) => ({
      id: s.id,
      name: s.name,
      purpose: s.purpose,
      topics: s.semantic_space.topics.map((t) => t.name),
      report_count: s.report_count,
      latest_report_date: s.latest_report_date,
    })),
  };
}

/** The user's research streams, as cards; the assistant sees them all. */
export function StreamsPage() {
  const api = useHorizonApi();
  const load = useCallback(async () => (await api.call("GET /api/horizon/streams", {})).data, [api]);
  const { state, reload } = useLoad(load);
  const streams = state.data ?? NO_STREAMS;

  const payloadHandlers = useMemo(
    (): Partial<Record<PagePayloadType<"streams">, PagePayloadHandler>> => ({
      stream_suggestions: pageActions("stream_suggestions", {
        onAccept: (data) => {
          const idea = data.suggestions[0];
          if (idea) navigate(paths.newStream(), { state: { draft: draftFromIdea(idea) } });
        },
      }),
    }),
    [],
  );

  const clientActions = useMemo(
    (): Record<Exclude<PageClientAction<"streams">, "close_chat">, ClientActionHandler> => ({
      open_stream: (data) => {
        const id = Number(data?.stream_id);
        if (Number.isInteger(id) && id > 0) navigate(paths.stream(id));
      },
      create_stream: () => {
        navigate(paths.newStream());
      },
    }),
    [],
  );

  const chat = useMemo(
    () => ({
      context: streamsContext(streams),
      payloadHandlers,
      clientActions,
      welcome: (
        <Welcome
          about="I see the list of your research streams."
          tries={["Give me portfolio insights", "Suggest new streams", "Search PubMed for CRISPR base editing"]}
        />
      ),
    }),
    [streams, payloadHandlers, clientActions],
  );
  usePageChat(chat);

  return (
    <section className="hz-page" aria-labelledby="streams-title">
      <header className="hz-page-header">
        <h1 id="streams-title">Research streams</h1>
        <Link to={paths.newStream()} className="hz-button" data-style="primary">
          New stream
        </Link>
      </header>
      <p className="hz-lead">Each stream is a standing literature search that produces periodic reports.</p>
      <LoadState state={state} what="your streams" onRetry={reload}>
        {(list) =>
          list.length === 0 ? (
            <div className="hz-empty">
              <p>You have no research streams yet.</p>
              <Link to={paths.newStream()}>Create your first stream</Link>, with the assistant's help if you like.
            </div>
          ) : (
            <ul className="hz-stream-list" aria-label="Your streams">
              {list.map((s) => (
                <StreamCard key={s.id} stream={s} />
              ))}
            </ul>
          )
        }
      </LoadState>
    </section>
  );
}
