import { useMemo } from "react";
import { schemaCardModel, type CardOptions } from "../schemaCard";
import { SchemaValue } from "./SchemaValue";
import { Button } from "./Button";

export interface SchemaCardProps {
  type: string;
  /** The payload data's JSON Schema; null or undefined: the data is shown as keys and values. */
  schema: unknown;
  data: unknown;
  /** The page on screen can accept the payload: Accept and Reject are offered. */
  canAccept: boolean;
  onAccept: () => void;
  onReject: () => void;
  options?: CardOptions;
}

/** A payload with no card of its own, shown from its JSON Schema (plain text, never HTML). */
export function SchemaCard({ type, schema, data, canAccept, onAccept, onReject, options }: SchemaCardProps) {
  const model = useMemo(() => schemaCardModel(type, schema, data, options), [type, schema, data, options]);
  return (
    <article className="pc-schema-card" data-card="schema" data-payload-type={type} aria-label={model.title}>
      <SchemaValue value={model.body} level={3} />
      {canAccept && (
        <div className="pc-schema-actions">
          <Button variant="primary" onClick={onAccept}>
            Accept
          </Button>
          <Button variant="secondary" onClick={onReject}>
            Reject
          </Button>
        </div>
      )}
    </article>
  );
}
