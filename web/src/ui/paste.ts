// Pasted JSON text with its two buttons, use it or go back to what the page ships: shared by the controls' config.json
// and calibration profile loaders. The text area keeps what the reader typed until the text in use changes.
import { html, nothing, type TemplateResult } from 'lit';

export interface PasteBox {
  /** The text area's id; its buttons are `<id>-use` and `<id>-clear`. */
  id: string;
  label: string;
  placeholder: string;
  /** The text in use ('' when none). */
  value: string;
  useText: string;
  /** The button back to the shipped choice, while a pasted one is in use (null: nothing to go back from). */
  clearText: string | null;
  onUse: (text: string, ev: Event) => void;
  onClear: (ev: Event) => void;
  /** The element the box is drawn in (light DOM): where the text is read and the keyboard kept. */
  host: HTMLElement & { readonly updateComplete: Promise<unknown> };
}

export function pasteBox(o: PasteBox): TemplateResult {
  const text = (): string => o.host.querySelector<HTMLTextAreaElement>(`#${o.id}`)?.value ?? '';
  return html`<textarea id=${o.id} class="paste-text" rows="5" spellcheck="false" aria-label=${o.label} placeholder=${o.placeholder} .value=${o.value}></textarea>
    <div class="plan-actions">
      <button type="button" id="${o.id}-use" @click=${(e: Event) => o.onUse(text(), e)}>${o.useText}</button>
      ${
        o.clearText
          ? html`<button type="button" id="${o.id}-clear" @click=${(e: Event) => {
              o.onClear(e);
              // The button goes away with the pasted text: keep the keyboard in the same place.
              void o.host.updateComplete.then(() => o.host.querySelector<HTMLButtonElement>(`#${o.id}-use`)?.focus());
            }}>${o.clearText}</button>`
          : nothing
      }
    </div>`;
}
