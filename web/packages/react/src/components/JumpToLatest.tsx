import { ArrowDown } from "lucide-react";

export function JumpToLatest({ onClick }: { onClick: () => void }) {
  return (
    <button type="button" className="pc-jump" onClick={onClick}>
      <ArrowDown size={14} aria-hidden="true" focusable="false" /> Jump to latest
    </button>
  );
}
