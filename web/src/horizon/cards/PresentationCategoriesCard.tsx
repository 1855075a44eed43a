import type { PayloadCallbacks } from "@pagechat/react";
import type { Category } from "../generated/api";
import type { PresentationCategories } from "../generated/payloads.gen";
import { ListDiff } from "./ListDiff";
import { ProposalActions } from "./ProposalActions";
import { Prose } from "./Prose";

export interface PresentationCategoriesCardProps {
  data: PresentationCategories;
  /** The stream's categories now (null: this page does not show them). */
  current: Category[] | null;
  callbacks: PayloadCallbacks;
}

type Named = { name: string; description?: string };

/** Proposed report categories against the stream's; accepting replaces them. */
export function PresentationCategoriesCard({ data, current, callbacks }: PresentationCategoriesCardProps) {
  return (
    <div className="hz-card" data-card="presentation-categories">
      <Prose text={data.reasoning} />
      <ListDiff<Named>
        label="Categories"
        before={current}
        after={data.categories}
        keyOf={(c) => c.name}
        same={(a, b) => (a.description ?? "") === (b.description ?? "")}
        render={(c) => (
          <>
            <strong>{c.name}</strong>
            {c.description ? <span className="hz-muted"> — {c.description}</span> : null}
          </>
        )}
      />
      <ProposalActions callbacks={callbacks} effect="Accepting replaces the stream's categories and saves them; you can undo it." />
    </div>
  );
}
