// Every Horizon card, registered once for every page: a conversation shows the same cards
// whichever page it is reopened on. A page adds only its actions (pageActions in
// payloadHandler.tsx); what a card compares against comes from the page's context.
import { BookOpen, CircleCheck, ClipboardList, Compass, FileText, FolderTree, Lightbulb, Search, Tags, Telescope } from "lucide-react";
import { registerPayloadHandler, type PayloadConversation } from "@pagechat/react";
import { contextDraft, contextStreamName } from "./cardContext";
import { PortfolioInsightsCard } from "./cards/PortfolioInsightsCard";
import { PresentationCategoriesCard } from "./cards/PresentationCategoriesCard";
import { PubmedArticleCard } from "./cards/PubmedArticleCard";
import { PubmedSearchResultsCard } from "./cards/PubmedSearchResultsCard";
import { RetrievalProposalCard } from "./cards/RetrievalProposalCard";
import { SchemaProposalCard } from "./cards/SchemaProposalCard";
import { StreamSuggestionsCard } from "./cards/StreamSuggestionsCard";
import { StreamTemplateCard } from "./cards/StreamTemplateCard";
import { TopicSuggestionsCard } from "./cards/TopicSuggestionsCard";
import { ValidationCard } from "./cards/ValidationCard";
import { cardAction, payloadHandler } from "./payloadHandler";

/** The named page actions cards offer (given by the page that can do them). */
export const CARD_ACTIONS = {
  /** stream_template: create the stream at once; resolves to an error text or null. */
  createStream: "create",
  /** validation_results: show the form field an issue is about. */
  openField: "open_field",
} as const;

/** Registers all of Horizon's cards; returns a function that removes them again. */
export function registerHorizonPayloads(): () => void {
  const removers = [
    registerPayloadHandler(
      "pubmed_search_results",
      payloadHandler("pubmed_search_results", {
        render: (data, callbacks) => <PubmedSearchResultsCard data={data} callbacks={callbacks} />,
        renderOptions: { headerTitle: "PubMed results", headerIcon: <BookOpen size={18} />, panelWidth: "460px" },
      }),
    ),
    registerPayloadHandler(
      "pubmed_article",
      payloadHandler("pubmed_article", {
        render: (data, callbacks) => <PubmedArticleCard data={data} callbacks={callbacks} />,
        renderOptions: { headerTitle: "Article", headerIcon: <FileText size={18} />, panelWidth: "460px" },
      }),
    ),
    registerPayloadHandler(
      "stream_template",
      payloadHandler("stream_template", {
        render: (data, callbacks) => {
          const create = cardAction(callbacks, CARD_ACTIONS.createStream) as
            | ((d: typeof data, c: PayloadConversation) => Promise<string | null>)
            | undefined;
          return <StreamTemplateCard data={data} callbacks={callbacks} onCreate={create && (() => create(data, callbacks.conversation))} />;
        },
        renderOptions: { headerTitle: "Stream template", headerIcon: <ClipboardList size={18} />, panelWidth: "440px" },
      }),
    ),
    registerPayloadHandler(
      "topic_suggestions",
      payloadHandler("topic_suggestions", {
        render: (data, callbacks) => <TopicSuggestionsCard data={data} callbacks={callbacks} />,
        renderOptions: { headerTitle: "Topic suggestions", headerIcon: <Tags size={18} />, panelWidth: "400px" },
      }),
    ),
    registerPayloadHandler(
      "validation_feedback",
      payloadHandler("validation_feedback", {
        render: (data, callbacks) => <ValidationCard data={data} callbacks={callbacks} />,
        renderOptions: { headerTitle: "Draft check", headerIcon: <CircleCheck size={18} />, panelWidth: "400px" },
      }),
    ),
    registerPayloadHandler(
      "validation_results",
      payloadHandler("validation_results", {
        render: (data, callbacks) => (
          <ValidationCard data={data} callbacks={callbacks} onField={cardAction(callbacks, CARD_ACTIONS.openField) as ((field: string) => void) | undefined} />
        ),
        renderOptions: { headerTitle: "Stream check", headerIcon: <CircleCheck size={18} />, panelWidth: "420px" },
      }),
    ),
    registerPayloadHandler(
      "schema_proposal",
      payloadHandler("schema_proposal", {
        render: (data, callbacks) => <SchemaProposalCard data={data} current={contextDraft(callbacks.context)} callbacks={callbacks} />,
        renderOptions: { headerTitle: "Schema proposal", headerIcon: <Compass size={18} />, panelWidth: "480px" },
      }),
    ),
    registerPayloadHandler(
      "retrieval_proposal",
      payloadHandler("retrieval_proposal", {
        render: (data, callbacks) => (
          <RetrievalProposalCard data={data} current={contextDraft(callbacks.context)?.retrieval_config.queries ?? null} callbacks={callbacks} />
        ),
        renderOptions: { headerTitle: "Retrieval proposal", headerIcon: <Search size={18} />, panelWidth: "480px" },
      }),
    ),
    registerPayloadHandler(
      "presentation_categories",
      payloadHandler("presentation_categories", {
        render: (data, callbacks) => (
          <PresentationCategoriesCard
            data={data}
            current={contextDraft(callbacks.context)?.presentation_config.categories ?? null}
            callbacks={callbacks}
          />
        ),
        renderOptions: { headerTitle: "Report categories", headerIcon: <FolderTree size={18} />, panelWidth: "460px" },
      }),
    ),
    registerPayloadHandler(
      "stream_suggestions",
      payloadHandler("stream_suggestions", {
        render: (data, callbacks) => <StreamSuggestionsCard data={data} callbacks={callbacks} />,
        renderOptions: { headerTitle: "Stream ideas", headerIcon: <Lightbulb size={18} />, panelWidth: "420px" },
      }),
    ),
    registerPayloadHandler(
      "portfolio_insights",
      payloadHandler("portfolio_insights", {
        render: (data, callbacks) => (
          <PortfolioInsightsCard data={data} callbacks={callbacks} streamName={(id) => contextStreamName(callbacks.context, id)} />
        ),
        renderOptions: { headerTitle: "Portfolio insights", headerIcon: <Telescope size={18} />, panelWidth: "440px" },
      }),
    ),
  ];
  return () => {
    for (const remove of removers) remove();
  };
}
