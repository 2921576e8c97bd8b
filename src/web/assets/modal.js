// @ts-check
/** A page-wide modal dialog (history, last runs): made once, re-rendered per opening, focus given back on close. */
import { render } from './vendor/preact.js';

/**
 * Shows `content(close)` in the dialog with this id (made on first use); Escape or `close()` closes it and
 * gives focus back to what had it.
 * @param {{ id: string, className: string, labelledBy: string, content: (close: () => void) => unknown }} props
 */
export function openModal({ id, className, labelledBy, content }) {
  let dialog = /** @type {HTMLDialogElement | null} */ (document.getElementById(id));
  if (dialog === null) {
    dialog = document.createElement('dialog');
    dialog.id = id;
    dialog.className = className;
    dialog.setAttribute('aria-labelledby', labelledBy);
    document.body.append(dialog);
  }
  const d = dialog;
  const opener = /** @type {HTMLElement | null} */ (document.activeElement);
  d.addEventListener(
    'close',
    () => {
      render(null, d);
      opener?.focus();
    },
    { once: true },
  );
  render(
    content(() => d.close()),
    d,
  );
  if (!d.open) d.showModal();
}
