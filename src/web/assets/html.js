// @ts-check
/** preact's `h` bound to htm: JSX-like templates with no build step. */

import htm from './vendor/htm.js';
import { h } from './vendor/preact.js';

export const html = htm.bind(h);
