// @ts-check
/**
 * Progressive enhancement of the profile page (it works without this): a Copy button for a new token,
 * and times shown in the browser's time zone.
 */

/** Copies the text of an input; the Clipboard API needs a secure context, which a LAN address over HTTP is not. @param {HTMLInputElement} input */
async function copyFrom(input) {
  if (navigator.clipboard !== undefined && window.isSecureContext) {
    await navigator.clipboard.writeText(input.value);
    return;
  }
  input.focus();
  input.select();
  if (!document.execCommand('copy')) throw new Error('copy refused');
}

for (const button of document.querySelectorAll('button[data-copy]')) {
  const input = document.getElementById(button.getAttribute('data-copy') ?? '');
  if (!(input instanceof HTMLInputElement)) continue;
  button.hidden = false;
  button.addEventListener('click', () => {
    copyFrom(input).then(
      () => {
        button.textContent = 'Copied';
        setTimeout(() => {
          button.textContent = 'Copy';
        }, 2000);
      },
      () => {
        input.select();
        button.textContent = 'Press Ctrl+C';
      },
    );
  });
  input.addEventListener('focus', () => input.select());
}

for (const time of document.querySelectorAll('time[datetime]')) {
  const when = new Date(time.getAttribute('datetime') ?? '');
  if (!Number.isNaN(when.getTime())) {
    time.setAttribute('title', when.toISOString());
    time.textContent = when.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  }
}
