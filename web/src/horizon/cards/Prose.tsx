import { Markdown } from "@pagechat/react";

/** Text the model wrote, as the chat renders it: safe markdown, no raw HTML. */
export function Prose({ text }: { text: string }) {
  return (
    <div className="hz-prose">
      <Markdown text={text} />
    </div>
  );
}
