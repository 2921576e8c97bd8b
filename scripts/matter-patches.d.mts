// Types for the tests, which read MATTER_PATCHES (scripts/matter-patches.mjs runs under plain node at build time).
export declare const MATTER_PATCHES: readonly { readonly file: string; readonly from: string; readonly to: string }[];
