import type { PayloadCallbacks } from "../../chat";
import type { Category, PresentationCategories } from "../generated/api";
import { CardActions } from "./CardActions";
import { Change } from "./Change";
import { NamedList } from "./NamedList";
import { Prose } from "./Prose";

export interface PresentationCategoriesCardProps {
  data: PresentationCategories;
  current: Category[];
  callbacks: PayloadCallbacks;
}

/** Proposed report categories; accepting replaces the stream's. */
export function PresentationCategoriesCard({ data, current, callbacks }: PresentationCategoriesCardProps) {
  return (
    <div className="hz-card" data-card="presentation-categories">
      <Prose text={data.reasoning} />
      <Change
        label={`Categories (${String(current.length)} → ${String(data.categories.length)})`}
        before={<NamedList items={current} label="Current categories" />}
        after={<NamedList items={data.categories} label="Proposed categories" />}
      />
      <p className="hz-muted">Accepting replaces the stream's categories and saves them.</p>
      <CardActions onAccept={() => { callbacks.onAccept(); }} onReject={callbacks.onReject} />
    </div>
  );
}
