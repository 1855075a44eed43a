// Loads a conversation's earlier messages when the user scrolls near the top, keeping
// what they were reading where it was.
import { useCallback, useEffect, useLayoutEffect, useRef, type RefObject } from "react";

const NEAR_TOP_PX = 120;

/** `firstId`: the first message shown; it changes when earlier ones are put before it. */
export function useLoadOlder(
  scrollerRef: RefObject<HTMLDivElement | null>,
  hasOlder: boolean,
  loadOlder: () => Promise<void>,
  firstId: string | undefined,
): () => void {
  // Distance from the bottom before the earlier messages arrived: the same after them
  // keeps the view on the same message.
  const fromBottom = useRef<number | null>(null);

  const load = useCallback(() => {
    const el = scrollerRef.current;
    if (el === null || !hasOlder) return;
    fromBottom.current = el.scrollHeight - el.scrollTop;
    void loadOlder();
  }, [scrollerRef, hasOlder, loadOlder]);

  useEffect(() => {
    const el = scrollerRef.current;
    if (el === null || !hasOlder) return;
    const onScroll = () => {
      if (el.scrollTop < NEAR_TOP_PX) load();
    };
    el.addEventListener("scroll", onScroll, { passive: true });
    return () => {
      el.removeEventListener("scroll", onScroll);
    };
  }, [scrollerRef, hasOlder, load]);

  useLayoutEffect(() => {
    const el = scrollerRef.current;
    if (el === null || fromBottom.current === null) return;
    el.scrollTop = el.scrollHeight - fromBottom.current;
    fromBottom.current = null;
  }, [scrollerRef, firstId]);

  return load;
}
