// Cards every page shows, whichever page the tool ran on: the global registry.
import { registerPayloadHandler } from "../chat";
import { PubmedArticleCard } from "./cards/PubmedArticleCard";
import { PubmedSearchResultsCard } from "./cards/PubmedSearchResultsCard";
import { payloadHandler } from "./payloadHandler";

/** Registers PubMed's cards; returns a function that removes them again. */
export function registerHorizonPayloads(): () => void {
  const removers = [
    registerPayloadHandler(
      "pubmed_search_results",
      payloadHandler("pubmed_search_results", {
        render: (data, callbacks) => <PubmedSearchResultsCard data={data} callbacks={callbacks} />,
        renderOptions: { headerTitle: "PubMed results", headerIcon: "📚", panelWidth: "460px" },
      }),
    ),
    registerPayloadHandler(
      "pubmed_article",
      payloadHandler("pubmed_article", {
        render: (data, callbacks) => <PubmedArticleCard data={data} callbacks={callbacks} />,
        renderOptions: { headerTitle: "Article", headerIcon: "📄", panelWidth: "460px" },
      }),
    ),
  ];
  return () => {
    for (const remove of removers) remove();
  };
}
