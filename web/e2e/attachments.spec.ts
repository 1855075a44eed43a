// Attachments (issue 36) in Chromium, on a real Horizon server: an image pasted into the message
// box and a PDF dropped on the tray upload at once and show their previews; sent, the message
// shows both as download links, the same after a reload; another user cannot open the files.
import type { Locator, Page } from "@playwright/test";
import { shot } from "./fixtures";
import { expect, openTray, signIn, test } from "./horizonFixture";

const OTHER = { email: "other@example.com", password: "other-password" };

/** A one-page PDF with a title and a line of text, its cross-reference table exact. */
function pdfBytes(title: string, line: string): number[] {
  const stream = `BT /F1 18 Tf 72 720 Td (${title}) Tj 0 -28 Td /F1 11 Tf (${line}) Tj ET`;
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    `<< /Length ${String(stream.length)} >>\nstream\n${stream}\nendstream`,
    `<< /Title (${title}) >>`,
  ];
  let body = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(body.length);
    body += `${String(i + 1)} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${String(objects.length + 1)}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, "0")} 00000 n \n`;
  body += `trailer\n<< /Size ${String(objects.length + 1)} /Root 1 0 R /Info 6 0 R >>\nstartxref\n${String(xref)}\n%%EOF\n`;
  return Array.from(new TextEncoder().encode(body));
}

/** Pastes a PNG drawn on a canvas into the message box, as a screenshot from the clipboard is. */
async function pasteImage(page: Page): Promise<void> {
  await page.getByRole("textbox", { name: "Message" }).evaluate(async (box) => {
    const canvas = document.createElement("canvas");
    canvas.width = 64;
    canvas.height = 48;
    const g = canvas.getContext("2d");
    if (g === null) throw new Error("no 2d context");
    g.fillStyle = "#2563eb";
    g.fillRect(0, 0, 64, 48);
    g.fillStyle = "#f0b429";
    g.fillRect(16, 12, 32, 24);
    const blob = await new Promise<Blob | null>((done) => {
      canvas.toBlob(done, "image/png");
    });
    if (blob === null) throw new Error("no PNG");
    const data = new DataTransfer();
    data.items.add(new File([blob], "image.png", { type: "image/png" }));
    box.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
  });
}

/** Drags a PDF over the tray and drops it there. */
async function dropPdf(tray: Locator, name: string, bytes: number[]): Promise<void> {
  const data = await tray.page().evaluateHandle(
    ({ name, bytes }) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([new Uint8Array(bytes)], name, { type: "application/pdf" }));
      return transfer;
    },
    { name, bytes },
  );
  await tray.dispatchEvent("dragenter", { dataTransfer: data });
  await expect(tray.getByText("Drop files to attach them")).toBeVisible();
  await tray.dispatchEvent("dragover", { dataTransfer: data });
  await tray.dispatchEvent("drop", { dataTransfer: data });
}

test("paste an image and drop a PDF, see them, send, reload and see the same; another user gets 404", async ({ page, browser, baseURL }) => {
  await signIn(page);
  const chat = await openTray(page);
  await pasteImage(page);
  await dropPdf(chat.tray, "trial.pdf", pdfBytes("A randomised trial of base editing", "We report a trial."));

  const chips = chat.tray.getByRole("list", { name: "Attached files" });
  await expect(chips.getByRole("listitem")).toHaveCount(2);
  await expect(chips.getByText("PDF ·")).toBeVisible();
  await expect(chips.getByText(/^PNG image · /)).toBeVisible();
  const thumbnail = chips.locator("img.pc-attachment-thumb");
  await expect(thumbnail).toHaveAttribute("src", /^blob:/);
  await expect.poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(64);
  await expect(chat.tray.getByRole("button", { name: "Send" })).toBeEnabled();
  await shot(page, "attachments-composer");

  await chat.input.fill("What does this paper add?");
  await chat.input.press("Enter");
  await expect(chat.answers.first()).toBeVisible();
  await expect(chat.tray.getByRole("button", { name: "Send" })).toBeVisible();
  const sent = chat.log.getByRole("list", { name: "Attachments" });
  const links = sent.getByRole("link");
  await expect(links).toHaveCount(2);
  const live = await links.evaluateAll((as) => as.map((a) => [a.textContent, a.getAttribute("href"), a.getAttribute("download")]));
  const image = sent.locator("img.pc-attachment-thumb");
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await sent.scrollIntoViewIfNeeded();
  await shot(page, "attachments-sent");

  await page.reload();
  const again = page.getByRole("log").getByRole("list", { name: "Attachments" });
  await expect(again.getByRole("link")).toHaveCount(2);
  expect(await again.getByRole("link").evaluateAll((as) => as.map((a) => [a.textContent, a.getAttribute("href"), a.getAttribute("download")]))).toEqual(live);
  await expect.poll(() => again.locator("img.pc-attachment-thumb").evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);

  // The owner downloads the PDF; another user's session gets 404 for both files.
  const hrefs = live.map(([, href]) => href ?? "");
  const pdfHref = hrefs.find((_, i) => live[i]?.[0]?.includes("PDF")) ?? "";
  const own = await page.request.get(pdfHref);
  expect(own.status()).toBe(200);
  expect(own.headers()["content-disposition"]).toMatch(/^attachment/);
  expect((await own.body()).subarray(0, 5).toString()).toBe("%PDF-");
  const other = await browser.newContext({ baseURL });
  try {
    const login = await other.request.post("/api/auth/login", { data: OTHER });
    expect(login.ok()).toBe(true);
    for (const href of hrefs) expect((await other.request.get(href)).status()).toBe(404);
  } finally {
    await other.close();
  }
});
