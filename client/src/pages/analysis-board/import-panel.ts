// Importing a record onto the analysis board: one in our format or a boardspace.net SGF
// file, pasted or chosen as a file, read by the server; its positions become the main
// line. A record that cannot be read is answered with the server's reason.

import "./import-panel.css";
import { h } from "../../dom";
import { t } from "../../i18n";
import type { ParsedRecord } from "../../protocol";
import { parseRecord } from "./server";
import { message } from "./words";

/** Whether a pasted text is worth sending. */
export function importable(text: string): boolean {
  return text.trim() !== "";
}

export class ImportPanel {
  private readonly text = h("textarea", {
    class: "import-text",
    rows: 4,
    "aria-label": t("board.importText"),
    placeholder: t("board.importPlaceholder"),
    spellcheck: "false",
    "data-testid": "import-text",
  }) as HTMLTextAreaElement;
  private readonly file = h("input", { type: "file", accept: ".txt,.sgf,.record,text/plain", "data-testid": "import-file", "aria-label": t("board.importFile") }) as HTMLInputElement;
  private readonly button = h("button", { type: "button", class: "primary", "data-testid": "import-submit", disabled: true }, t("board.importButton"));
  private readonly note = h("p", { class: "ab-error", role: "status", "data-testid": "import-error", hidden: true });
  readonly el = h(
    "section",
    { class: "ab-import", "data-testid": "board-import" },
    h("h2", {}, t("board.import")),
    h("p", { class: "ab-explain" }, t("board.importExplain")),
    this.text,
    h("div", { class: "ab-row" }, this.button, h("label", { class: "import-file" }, h("span", {}, t("board.importFile")), this.file)),
    this.note,
  );

  /** `imported` takes the record the server read; `signal` ends the page's requests. */
  constructor(
    private readonly signal: AbortSignal,
    private readonly imported: (record: ParsedRecord) => void,
  ) {
    const on = { signal };
    this.text.addEventListener("input", () => (this.button.disabled = !importable(this.text.value)), on);
    this.button.addEventListener("click", () => void this.send(this.text.value), on);
    this.file.addEventListener(
      "change",
      () => {
        const file = this.file.files?.[0];
        if (!file) return;
        void file.text().then((text) => {
          this.file.value = ""; // the same file can be chosen again
          return this.send(text);
        });
      },
      on,
    );
  }

  private async send(text: string): Promise<void> {
    this.note.hidden = true;
    this.button.disabled = true;
    this.button.textContent = t("board.importing");
    try {
      const parsed = await parseRecord(text, this.signal);
      if (this.signal.aborted) return;
      this.imported(parsed);
    } catch (err) {
      if (this.signal.aborted) return;
      this.note.textContent = t("board.importError", { error: message(err) });
      this.note.hidden = false;
    } finally {
      this.button.textContent = t("board.importButton");
      this.button.disabled = !importable(this.text.value);
    }
  }
}
