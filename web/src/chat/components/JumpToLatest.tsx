export function JumpToLatest({ onClick }: { onClick: () => void }) {
  return (
    <button type="button" className="pc-jump" onClick={onClick}>
      ↓ Jump to latest
    </button>
  );
}
