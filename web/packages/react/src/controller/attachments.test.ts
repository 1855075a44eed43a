import { describe, expect, it } from "vitest";
import { until } from "../../test/parts";
import { FakeFetch, json } from "../../test/sse-server";
import { createChatApi } from "../api";
import type { AttachmentRef } from "../types";
import { AttachmentDrafts, type PreviewUrls } from "./attachments";

const png = () => new File([new Uint8Array([137, 80, 78, 71])], "shot.png", { type: "image/png" });
const pdf = () => new File(["%PDF-1.4 a paper"], "paper.pdf", { type: "application/pdf" });
const stored = (id: string, name: string, media_type: string, size = 4): AttachmentRef => ({ id, name, media_type, size });

/** An answer the test gives when it chooses (an upload that takes a while). */
function later<T>() {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

function setup(initial?: AttachmentRef[]) {
  const fake = new FakeFetch();
  const api = createChatApi({ getToken: () => "tok", fetch: fake.fetch });
  const made: string[] = [];
  const revoked: string[] = [];
  const previews: PreviewUrls = {
    create: (file) => {
      made.push(`blob:${file.name}`);
      return `blob:${file.name}`;
    },
    revoke: (url) => revoked.push(url),
  };
  const drafts = new AttachmentDrafts({ api, initial, previews });
  return { fake, drafts, made, revoked };
}

describe("AttachmentDrafts", () => {
  it("uploads each file at once as a multipart form, pending until the server answers", async () => {
    const { fake, drafts } = setup();
    const answer = later<Response>();
    fake.on("POST", "/api/attachments", () => answer.promise);
    drafts.add([png()]);
    expect(drafts.getState().pending).toBe(true);
    expect(drafts.getState().drafts[0]).toMatchObject({ name: "shot.png", media_type: "image/png", preview: "blob:shot.png", stored: null });
    await until(() => fake.calls.length === 1);
    const call = fake.calls[0];
    expect(call?.method).toBe("POST");
    expect(call?.body).toBeInstanceOf(FormData);
    expect(((call?.body as FormData).get("file") as File).name).toBe("shot.png");
    // The browser sets the multipart boundary itself.
    expect(call?.headers.get("Content-Type")).toBeNull();
    answer.resolve(json(stored("a1", "shot.png", "image/png"), 201));
    await until(() => !drafts.getState().pending);
    expect(drafts.getState().drafts[0]?.stored).toEqual(stored("a1", "shot.png", "image/png"));
  });

  it("takes the server's name and type, sniffed from the bytes, and drops a thumbnail that is not an image", async () => {
    const { fake, drafts, revoked } = setup();
    fake.on("POST", "/api/attachments", () => json(stored("a1", "shot.pdf", "application/pdf", 99), 201));
    drafts.add([png()]);
    await until(() => !drafts.getState().pending);
    expect(drafts.getState().drafts[0]).toMatchObject({ name: "shot.pdf", media_type: "application/pdf", size: 99, preview: null });
    expect(revoked).toEqual(["blob:shot.png"]);
  });

  it("makes no thumbnail for a file that is not an image", () => {
    const { fake, drafts, made } = setup();
    fake.on("POST", "/api/attachments", () => later<Response>().promise);
    drafts.add([pdf()]);
    expect(made).toEqual([]);
    expect(drafts.getState().drafts[0]?.preview).toBeNull();
  });

  it("shows the server's sentence when it refuses a file, and the chip goes", async () => {
    const { fake, drafts, revoked } = setup();
    fake.on("POST", "/api/attachments", () => json({ detail: "The file is over the 10 MB limit." }, 413));
    fake.on("POST", "/api/attachments", () => json({ detail: "Too many files today." }, 429));
    fake.on("POST", "/api/attachments", () => new Response("", { status: 415 }));
    drafts.add([png(), pdf(), new File(["<svg/>"], "x.svg", { type: "image/svg+xml" })]);
    await until(() => drafts.getState().errors.length === 3);
    expect(drafts.getState().errors.map((e) => [e.name, e.message])).toEqual([
      ["shot.png", "The file is over the 10 MB limit."],
      ["paper.pdf", "Too many files today."],
      ["x.svg", "This type of file cannot be attached."],
    ]);
    expect(drafts.getState().drafts).toEqual([]);
    expect(drafts.getState().pending).toBe(false);
    expect(revoked).toEqual(["blob:shot.png"]);
    drafts.dismissError(drafts.getState().errors[0]?.key ?? "");
    expect(drafts.getState().errors).toHaveLength(2);
  });

  it("deletes an uploaded file removed before sending", async () => {
    const { fake, drafts, revoked } = setup();
    fake.on("POST", "/api/attachments", () => json(stored("a1", "shot.png", "image/png"), 201));
    fake.on("DELETE", "/api/attachments/a1", () => new Response(null, { status: 204 }));
    drafts.add([png()]);
    await until(() => !drafts.getState().pending);
    drafts.remove(drafts.getState().drafts[0]?.key ?? "");
    expect(drafts.getState().drafts).toEqual([]);
    expect(revoked).toEqual(["blob:shot.png"]);
    await until(() => fake.calls.some((c) => c.method === "DELETE"));
  });

  it("stops an upload removed while under way, and deletes what the server stored anyway", async () => {
    const { fake, drafts } = setup();
    const answer = later<Response>();
    fake.on("POST", "/api/attachments", () => answer.promise);
    fake.on("DELETE", "/api/attachments/a1", () => new Response(null, { status: 204 }));
    drafts.add([png()]);
    drafts.remove(drafts.getState().drafts[0]?.key ?? "");
    expect(drafts.getState()).toMatchObject({ drafts: [], pending: false, errors: [] });
    answer.resolve(json(stored("a1", "shot.png", "image/png"), 201));
    await new Promise((resolve) => setTimeout(resolve, 10));
    // The upload was stopped: nothing shows, not even an error.
    expect(drafts.getState().drafts).toEqual([]);
    expect(drafts.getState().errors).toEqual([]);
  });

  it("gives nothing to send while a file uploads, and everything once it is done", async () => {
    const { fake, drafts } = setup();
    const answer = later<Response>();
    fake.on("POST", "/api/attachments", () => json(stored("a1", "shot.png", "image/png"), 201));
    fake.on("POST", "/api/attachments", () => answer.promise);
    drafts.add([png()]);
    await until(() => !drafts.getState().pending);
    drafts.add([pdf()]);
    expect(drafts.take()).toBeNull();
    answer.resolve(json(stored("a2", "paper.pdf", "application/pdf"), 201));
    await until(() => !drafts.getState().pending);
    expect(drafts.take()?.map((a) => a.id)).toEqual(["a1", "a2"]);
    expect(drafts.getState().drafts).toEqual([]);
    // Taken files belong to the message now: nothing is deleted.
    expect(fake.calls.filter((c) => c.method === "DELETE")).toEqual([]);
  });

  it("keeps the files a message had when editing: removing one does not delete it; cancelling deletes only the new ones", async () => {
    const kept = stored("old", "figure.png", "image/png");
    const { fake, drafts } = setup([kept, stored("old2", "notes.txt", "text/plain")]);
    expect(drafts.getState().drafts.map((d) => d.stored?.id)).toEqual(["old", "old2"]);
    drafts.remove(drafts.getState().drafts[1]?.key ?? "");
    fake.on("POST", "/api/attachments", () => json(stored("new", "paper.pdf", "application/pdf"), 201));
    fake.on("DELETE", "/api/attachments/new", () => new Response(null, { status: 204 }));
    drafts.add([pdf()]);
    await until(() => !drafts.getState().pending);
    drafts.discard();
    await until(() => fake.calls.some((c) => c.method === "DELETE"));
    expect(fake.calls.filter((c) => c.method === "DELETE").map((c) => c.url)).toEqual(["/api/attachments/new"]);
    expect(drafts.getState().drafts).toEqual([]);
  });

  it("tells its listeners of every change", async () => {
    const { fake, drafts } = setup();
    fake.on("POST", "/api/attachments", () => json(stored("a1", "shot.png", "image/png"), 201));
    let changes = 0;
    const stop = drafts.subscribe(() => (changes += 1));
    drafts.add([png()]);
    await until(() => !drafts.getState().pending);
    stop();
    drafts.take();
    expect(changes).toBe(2);
  });
});
