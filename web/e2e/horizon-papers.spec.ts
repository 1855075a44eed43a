// A paper's PDF dropped on a report (issue 36, Horizon): the offline assistant summarises it,
// says how it relates to the report, and proposes adding it to the stream as a topic; Accept
// saves it to the stream (seen through the API and on the stream's page).
import type { Locator } from "@playwright/test";
import { shot } from "./fixtures";
import { expect, openTray, signIn, test } from "./horizonFixture";

const TITLE = "Base editing corrects the sickle cell mutation in CRISPR edited stem cells";
const FIRST = "We used an adenine base editor to correct the sickle cell mutation in human stem cells.";
const LINES = [
  "Nature Medicine 2026",
  TITLE,
  "Ada Lovelace, Rosalind Franklin, Barbara McClintock",
  "Abstract",
  FIRST,
  "Edited cells engrafted in mice and made normal haemoglobin.",
  "Off-target editing was rare.",
  "Introduction",
  "Sickle cell disease is caused by a single base change.",
];

/** A one-page PDF, a line of text each, its cross-reference table exact. */
function pdfBytes(lines: string[]): number[] {
  const text = lines.map((line) => `(${line}) '`).join("\n");
  const stream = `BT /F1 11 Tf 14 TL 56 760 Td\n${text}\nET`;
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    `<< /Length ${String(stream.length)} >>\nstream\n${stream}\nendstream`,
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
  body += `trailer\n<< /Size ${String(objects.length + 1)} /Root 1 0 R >>\nstartxref\n${String(xref)}\n%%EOF\n`;
  return Array.from(new TextEncoder().encode(body));
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
  await tray.dispatchEvent("dragover", { dataTransfer: data });
  await tray.dispatchEvent("drop", { dataTransfer: data });
}

interface Stream {
  name: string;
  semantic_space: { topics: { name: string; description: string }[] };
}

test("drop a paper's PDF on a report: a summary, how it relates, and Accept adds it to the stream", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page);
  await page.goto("/streams/1/reports");
  await expect(page).toHaveURL(/\/reports\/\d+$/);
  const before = (await (await page.request.get("/api/horizon/streams/1")).json()) as Stream;

  const chat = await openTray(page);
  await dropPdf(chat.tray, "sickle.pdf", pdfBytes(LINES));
  await expect(chat.tray.getByRole("list", { name: "Attached files" }).getByText("sickle.pdf")).toBeVisible();
  const answer = await chat.ask("What does this paper add?");

  await expect(answer).toContainText(`The paper is ${TITLE}. From its abstract: ${FIRST}`);
  await expect(answer).toContainText("How it relates to this report: it shares the terms");
  await expect(answer).toContainText(`I propose adding it to “${before.name}” as a topic`);
  const panel = page.getByRole("complementary", { name: "Schema proposal" });
  await expect(panel.getByText(TITLE)).toBeVisible();
  await expect(panel.getByText("Accepting saves these fields to the stream")).toBeVisible();
  await shot(page, "horizon-papers-01-proposal");

  await panel.getByRole("button", { name: "Accept" }).click();
  await expect(chat.log.locator('[data-role="action"]').last()).toContainText(`Applied the proposed changes to “${before.name}”`);
  await expect(answer.getByText("Accepted")).toBeVisible();
  await shot(page, "horizon-papers-02-accepted");

  const after = (await (await page.request.get("/api/horizon/streams/1")).json()) as Stream;
  expect(after.semantic_space.topics.map((t) => t.name)).toEqual([...before.semantic_space.topics.map((t) => t.name), TITLE]);
  expect(after.semantic_space.topics.at(-1)?.description).toBe(`Seed paper: ${FIRST}`);
  await page.goto("/streams/1");
  await expect(page.locator('[data-list="topic"] > ol > li')).toHaveCount(before.semantic_space.topics.length + 1);
});
