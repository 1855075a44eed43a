// The apps this web shell can show, first match first (see app/shellApp.ts). An app of your
// own is one more entry here: its screens and cards live in a folder of its own. An app with no
// entry gets GENERIC_APP: a plain page per registered page, its payloads shown as schema cards.
import { DEMO_APP } from "./app/DemoPage";
import { GENERIC_APP } from "./app/GenericApp";
import type { ShellApp } from "./app/shellApp";
import { HORIZON_APP } from "./horizon/HorizonApp";
import { NOTES_APP } from "./notes/NotesApp";

export const APPS: readonly ShellApp[] = [HORIZON_APP, NOTES_APP, GENERIC_APP, DEMO_APP];
