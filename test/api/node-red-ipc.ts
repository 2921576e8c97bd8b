/** Messages between the end-to-end test and its Node-RED child process (node-red-child.ts). */

/** Child -> parent: Node-RED started; a probe node received something; a log record. */
export type ChildMessage =
  | { readonly type: 'started' }
  | { readonly type: 'sink'; readonly kind: string; readonly msg: Record<string, unknown> }
  | { readonly type: 'log'; readonly level: number; readonly id: string | null; readonly text: string };

/** Parent -> child: hand `msg` to node `id` as its input; stop Node-RED and exit. */
export type ParentMessage =
  | { readonly type: 'receive'; readonly id: string; readonly msg: Record<string, unknown> }
  | { readonly type: 'stop' };
