// Dropping files on an element: whether files are being dragged over it (to show where they
// will go), and the handlers that take them. Text or links dragged over are left alone.
import { useCallback, useRef, useState, type DragEvent } from "react";
import { carriesFiles, filesOf } from "./attachments";

export interface FileDrop {
  /** True while files are dragged over the element. */
  dragging: boolean;
  handlers: {
    onDragEnter: (event: DragEvent) => void;
    onDragOver: (event: DragEvent) => void;
    onDragLeave: (event: DragEvent) => void;
    onDrop: (event: DragEvent) => void;
  };
}

export function useFileDrop(onFiles: (files: File[]) => void): FileDrop {
  const [dragging, setDragging] = useState(false);
  // dragenter and dragleave fire for every child crossed: count them to know when it left.
  const depth = useRef(0);
  const onDragEnter = useCallback((event: DragEvent) => {
    if (!carriesFiles(event.dataTransfer)) return;
    event.preventDefault();
    depth.current += 1;
    setDragging(true);
  }, []);
  const onDragOver = useCallback((event: DragEvent) => {
    if (!carriesFiles(event.dataTransfer)) return;
    // Without this the browser opens the file instead of dropping it here.
    event.preventDefault();
    event.dataTransfer.dropEffect = "copy";
  }, []);
  const onDragLeave = useCallback((event: DragEvent) => {
    if (!carriesFiles(event.dataTransfer)) return;
    depth.current = Math.max(0, depth.current - 1);
    if (depth.current === 0) setDragging(false);
  }, []);
  const onDrop = useCallback(
    (event: DragEvent) => {
      if (!carriesFiles(event.dataTransfer)) return;
      event.preventDefault();
      depth.current = 0;
      setDragging(false);
      const files = filesOf(event.dataTransfer);
      if (files.length > 0) onFiles(files);
    },
    [onFiles],
  );
  return { dragging, handlers: { onDragEnter, onDragOver, onDragLeave, onDrop } };
}
