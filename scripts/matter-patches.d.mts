// Types for the tests, which read MATTER_PATCHES (scripts/matter-patches.mjs runs under plain node at build time).
export declare const MATTER_PATCHES: readonly { readonly file: string; readonly from: string; readonly to: string }[];
/** `text`, the file of matter.js at `path`, with MATTER_PATCHES applied; throws when one no longer finds its text. */
export declare function patched(path: string, text: string): string;
