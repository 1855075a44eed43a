// ```choices blocks: a multiple-choice question the model asks (specs/choices-design.md).

export interface ChoiceOption {
  label: string;
  value: string;
}

export interface Choices {
  question: string;
  options: ChoiceOption[];
}

export const CHOICES_LANGUAGE = "choices";

function nonEmptyString(value: unknown): value is string {
  return typeof value === "string" && value.trim() !== "";
}

/**
 * Parses the body of a ```choices block: `{question, options: [{label, value}]}` with 2–4
 * options, every question, label and value a non-empty string. Anything else is null, and
 * the block is shown as an ordinary code block.
 */
export function parseChoices(source: string): Choices | null {
  let value: unknown;
  try {
    value = JSON.parse(source);
  } catch {
    return null;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const { question, options } = value as { question?: unknown; options?: unknown };
  if (!nonEmptyString(question) || !Array.isArray(options)) return null;
  if (options.length < 2 || options.length > 4) return null;
  const parsed: ChoiceOption[] = [];
  for (const option of options as unknown[]) {
    if (typeof option !== "object" || option === null) return null;
    const { label, value: optionValue } = option as { label?: unknown; value?: unknown };
    if (!nonEmptyString(label) || !nonEmptyString(optionValue)) return null;
    parsed.push({ label, value: optionValue });
  }
  return { question, options: parsed };
}

// A ```choices block, fenced by three or more backticks or tildes and closed by the same.
const CHOICES_BLOCK = /^(`{3,}|~{3,})[ \t]*choices\b[^\n]*\n([\s\S]*?)\n\1[ \t]*$/gm;

/** `text` with each valid ```choices block as what the user saw: the question, then each
 * option's label on a line of its own ("- label"). An invalid block stays as written. */
export function choicesAsText(text: string): string {
  return text.replace(CHOICES_BLOCK, (block: string, _fence: string, body: string) => {
    const choices = parseChoices(body);
    if (choices === null) return block;
    return [choices.question.trim(), ...choices.options.map((o) => `- ${o.label}`)].join("\n");
  });
}
