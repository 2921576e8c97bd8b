// Types for the tests, which read scripts/matter-stubs.mjs (it runs under plain node at build time).
export declare const MATTER_STUBS: readonly RegExp[];
export declare function stubbed(path: string): boolean;
export declare function exportedNames(text: string, path: string): string[];
export declare function assertAllUsed(used: ReadonlySet<RegExp>): void;
