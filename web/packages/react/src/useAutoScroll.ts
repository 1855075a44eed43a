// Keeps a scroll container at its bottom while content grows, until the user scrolls up.
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type RefObject } from "react";

const NEAR_BOTTOM_PX = 32;

export interface AutoScroll {
  /** Attach to the scrolling element. */
  scrollerRef: RefObject<HTMLDivElement | null>;
  /** Attach to the element inside it that grows. */
  contentRef: RefObject<HTMLDivElement | null>;
  /** False once the user scrolled up: new content no longer moves the view. */
  following: boolean;
  jumpToLatest: () => void;
}

/** `change`: any value that differs whenever the content may have grown. */
export function useAutoScroll(change: unknown): AutoScroll {
  const scrollerRef = useRef<HTMLDivElement>(null);
  const contentRef = useRef<HTMLDivElement>(null);
  const followingRef = useRef(true);
  const lastTop = useRef(0);
  const [following, setFollowing] = useState(true);

  const follow = useCallback((value: boolean) => {
    followingRef.current = value;
    setFollowing(value);
  }, []);

  const toBottom = useCallback(() => {
    const el = scrollerRef.current;
    if (el === null) return;
    el.scrollTop = el.scrollHeight;
    lastTop.current = el.scrollTop;
  }, []);

  useEffect(() => {
    const el = scrollerRef.current;
    if (el === null) return;
    const onScroll = () => {
      const distance = el.scrollHeight - el.scrollTop - el.clientHeight;
      if (distance <= NEAR_BOTTOM_PX) {
        if (!followingRef.current) follow(true);
      } else if (el.scrollTop < lastTop.current && followingRef.current) {
        follow(false);
      }
      lastTop.current = el.scrollTop;
    };
    // Scrolling up by wheel is the user's intent even before the position changes.
    const onWheel = (event: WheelEvent) => {
      if (event.deltaY < 0 && followingRef.current && el.scrollHeight > el.clientHeight) follow(false);
    };
    el.addEventListener("scroll", onScroll, { passive: true });
    el.addEventListener("wheel", onWheel, { passive: true });
    return () => {
      el.removeEventListener("scroll", onScroll);
      el.removeEventListener("wheel", onWheel);
    };
  }, [follow]);

  // Content that grows on its own (a tool card opened, a font loaded) is followed too.
  useEffect(() => {
    const el = contentRef.current;
    if (el === null || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(() => {
      if (followingRef.current) toBottom();
    });
    observer.observe(el);
    return () => {
      observer.disconnect();
    };
  }, [toBottom]);

  useLayoutEffect(() => {
    if (followingRef.current) toBottom();
  }, [change, toBottom]);

  const jumpToLatest = useCallback(() => {
    follow(true);
    toBottom();
  }, [follow, toBottom]);

  return { scrollerRef, contentRef, following, jumpToLatest };
}
