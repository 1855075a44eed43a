// What the tray shows of a file: its size as people read it, what kind of file it is, and
// whether it is an image a thumbnail can show. Plain functions, no React.

const UNITS = ["KB", "MB", "GB"] as const;

/** A size as people read it: "512 B", "1.5 KB", "12 MB" (1 KB = 1024 bytes). */
export function humanSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 1024) return `${String(Math.max(0, Math.round(bytes || 0)))} B`;
  let value = bytes;
  let unit: string = "B";
  for (const next of UNITS) {
    if (value < 1024) break;
    value /= 1024;
    unit = next;
  }
  const shown = value < 10 ? value.toFixed(1).replace(/\.0$/, "") : String(Math.round(value));
  return `${shown} ${unit}`;
}

// The image types the server accepts and a browser shows in <img>; SVG is never previewed.
const THUMBNAIL_TYPES = new Set(["image/png", "image/jpeg", "image/webp", "image/gif"]);

/** Whether a file of this media type gets a thumbnail. */
export function hasThumbnail(mediaType: string): boolean {
  return THUMBNAIL_TYPES.has(mediaType.toLowerCase());
}

const TYPE_LABELS: Record<string, string> = {
  "application/pdf": "PDF",
  "text/plain": "Text",
  "text/markdown": "Markdown",
  "text/csv": "CSV",
  "application/json": "JSON",
  "image/png": "PNG image",
  "image/jpeg": "JPEG image",
  "image/webp": "WebP image",
  "image/gif": "GIF image",
};

/** What kind of file it is, in a word or two: "PDF", "PNG image"; else the name's extension. */
export function typeLabel(mediaType: string, name: string): string {
  const known = TYPE_LABELS[mediaType.toLowerCase()];
  if (known !== undefined) return known;
  const dot = name.lastIndexOf(".");
  if (dot > 0 && dot < name.length - 1) return name.slice(dot + 1).toUpperCase().slice(0, 8);
  return "File";
}

/** The files a paste or a drop carries (none when it carries only text). */
export function filesOf(data: DataTransfer | null): File[] {
  if (data === null) return [];
  const files = Array.from(data.files);
  if (files.length > 0) return files;
  // Some browsers list a pasted screenshot only among the items.
  const fromItems: File[] = [];
  for (const item of Array.from(data.items)) {
    const file = item.kind === "file" ? item.getAsFile() : null;
    if (file !== null) fromItems.push(file);
  }
  return fromItems;
}

/** Whether a drag carries files (not text or a link being dragged). */
export function carriesFiles(data: DataTransfer | null): boolean {
  return data !== null && Array.from(data.types).includes("Files");
}
