/** Shown instead of a card whose data is not the shape its type promises. */
export function InvalidPayload({ type }: { type: string }) {
  return (
    <p className="hz-card-error" role="alert">
      This {type.replaceAll("_", " ")} cannot be shown: its data is incomplete.
    </p>
  );
}
