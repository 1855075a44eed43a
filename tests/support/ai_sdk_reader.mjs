// The AI SDK's own reading of a UI message stream, for the Python tests
// (tests/support/ai_sdk.py): `node ai_sdk_reader.mjs WEB_ROOT` reads
// `{"body": <the SSE response text>, "message": <the UI message it continues, or null>}`
// on stdin and prints `{"chunks": [...], "message": <the folded UI message>, "error": ...}`.
//
// The chunks are parsed exactly as `DefaultChatTransport` parses a response (the `ai`
// package's `uiMessageChunkSchema`: a chunk off the schema is an error), then folded into
// a message by `readUIMessageStream`, which throws on a sequence it cannot follow (a tool
// output for a call it never saw, a text delta outside a text part...).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const webRoot = process.argv[2];
const ai = await import(pathToFileURL(join(webRoot, "node_modules/ai/dist/index.js")).href);
const input = JSON.parse(readFileSync(0, "utf8"));

const body = new ReadableStream({
  start(controller) {
    controller.enqueue(new TextEncoder().encode(input.body));
    controller.close();
  },
});
const chunks = [];
let error = null;
let message = null;
try {
  const parsed = new ai.DefaultChatTransport().processResponseStream(body).pipeThrough(
    new TransformStream({
      transform(chunk, controller) {
        chunks.push(chunk);
        controller.enqueue(chunk);
      },
    }),
  );
  const messages = ai.readUIMessageStream({
    stream: parsed,
    message: input.message ?? undefined,
    terminateOnError: true,
  });
  for await (const m of messages) message = m;
} catch (e) {
  error = String(e?.message ?? e).slice(0, 2000);
}
process.stdout.write(JSON.stringify({ chunks, message, error }));
