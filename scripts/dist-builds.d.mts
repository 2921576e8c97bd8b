// Types for the tests, which call these directly (scripts/dist-builds.mjs runs under plain node at build time).
export declare const BUILDS: string;
export declare const ENTRIES: readonly string[];
export declare function newBuildDir(dist: string): string;
export declare function publish(dist: string, buildDir: string): string | undefined;
export declare function replaceLink(link: string, target: string): void;
export declare function pruneBuilds(dist: string, keep: ReadonlySet<string>): void;
