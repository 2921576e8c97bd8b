// @ts-check
/**
 * An automation's or script's last runs in a dialog (the hub keeps the last five of each): the list of runs with
 * their time, trigger and outcome, and for the chosen run its steps in order, each with its result, the variables
 * it changed and its error. Read with the WebSocket `trace/list` and `trace/get` commands; loaded on first use.
 */

import { html } from './html.js';
import { openModal } from './modal.js';
import { useEffect, useState } from './vendor/hooks.js';

/** @typedef {{ command(message: object): Promise<any> }} Hub */
/** @typedef {{ run_id: string, state: string, script_execution: string | null, timestamp: { start: string, finish: string | null }, trigger?: string | null, last_step: string | null, error?: string }} RunSummary */
/** @typedef {{ path: string, timestamp: string, result?: Record<string, unknown>, changed_variables?: Record<string, unknown>, error?: string }} Step */

/** What each script_execution means to a user. @type {Record<string, string>} */
const OUTCOMES = {
  finished: 'Finished',
  failed_conditions: 'Stopped: conditions not met',
  failed_single: 'Not run: already running',
  failed_max_runs: 'Not run: too many runs',
  aborted: 'Aborted',
  cancelled: 'Cancelled',
  error: 'Error',
};

/** @param {RunSummary} run */
function outcomeText(run) {
  if (run.state === 'running') return 'Running';
  return OUTCOMES[run.script_execution ?? ''] ?? run.script_execution ?? 'Stopped';
}

/** @param {string} iso */
function timeText(iso) {
  return new Date(iso).toLocaleString([], { dateStyle: 'short', timeStyle: 'medium' });
}

/** @param {unknown} value */
function jsonText(value) {
  return JSON.stringify(value, null, 2);
}

/** A target or service data on one line: `entity_id: light.x, brightness: 40`. @param {Record<string, unknown>} obj */
function inline(obj) {
  return Object.entries(obj)
    .map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(', ') : typeof v === 'object' ? JSON.stringify(v) : v}`)
    .join(', ');
}

const PART_WORDS = /** @type {Record<string, string>} */ ({
  trigger: 'Trigger',
  condition: 'Condition',
  action: 'Action',
  sequence: 'Step',
});

/**
 * Where a step is, in words, from its path and the item's configuration: `action/1/then/0` is "Action 2, then 1:
 * light.turn_on". @param {string} path @param {any} config
 */
export function stepTitle(path, config) {
  const parts = path.split('/');
  /** @type {string[]} */
  const words = [];
  let node = config;
  for (let i = 0; i < parts.length; i++) {
    const p = /** @type {string} */ (parts[i]);
    const n = Number(p);
    if (Number.isInteger(n)) {
      words[words.length - 1] += ` ${n + 1}`;
      node = Array.isArray(node) ? node[n] : node;
    } else {
      words.push(PART_WORDS[p] ?? p.replace(/_/g, ' '));
      node = node?.[p] ?? node?.[`${p}s`];
    }
  }
  const first = words.join(', ');
  const what =
    node?.alias ??
    node?.action ??
    node?.service ??
    node?.trigger ??
    node?.platform ??
    node?.condition ??
    (node !== null && typeof node === 'object' ? ACTION_KINDS.find(([key]) => key in node)?.[1] : undefined);
  return typeof what === 'string' ? `${first}: ${what}` : first;
}

/** Actions without a service, by the key that makes them (HA's script action kinds), in words. */
const ACTION_KINDS = /** @type {const} */ ([
  ['delay', 'delay'],
  ['variables', 'set variables'],
  ['event', 'fire an event'],
  ['scene', 'activate a scene'],
  ['wait_template', 'wait for a template'],
  ['wait_for_trigger', 'wait for a trigger'],
  ['repeat', 'repeat'],
  ['choose', 'choose'],
  ['if', 'if-then'],
  ['parallel', 'in parallel'],
  ['sequence', 'a sequence'],
  ['stop', 'stop'],
  ['device_id', 'a device action'],
]);

/** What started the run, from the trigger step's `trigger` variable. @param {Step} step */
function triggerText(step) {
  const trigger = /** @type {{ description?: unknown, platform?: unknown } | undefined} */ (step.changed_variables?.trigger);
  if (trigger === undefined) return '';
  if (typeof trigger.description === 'string') return `Triggered by ${trigger.description}`;
  return trigger.platform === null || trigger.platform === undefined ? 'Run by hand' : `Triggered by ${trigger.platform}`;
}

/** A step's result in words: the service called, the branch taken, the wait, the condition's answer. @param {Step} step */
function resultText(step) {
  const r = step.result;
  if (step.path.startsWith('trigger')) return triggerText(step);
  if (r === undefined) return '';
  const params =
    /** @type {{ domain?: string, service?: string, service_data?: Record<string, unknown>, target?: Record<string, unknown> } | undefined} */ (
      r.params
    );
  if (params !== undefined) {
    const target = params.target !== undefined && Object.keys(params.target).length > 0 ? ` on ${inline(params.target)}` : '';
    const data =
      params.service_data !== undefined && Object.keys(params.service_data).length > 0 ? ` with ${inline(params.service_data)}` : '';
    return `Called ${params.domain}.${params.service}${target}${data}`;
  }
  if ('choice' in r) return `Took ${typeof r.choice === 'number' ? `option ${r.choice + 1}` : r.choice}`;
  if ('wait' in r) {
    const wait = /** @type {{ completed?: boolean }} */ (r.wait);
    return wait.completed ? 'Wait completed' : r.timeout ? 'Wait timed out: stopped' : 'Wait timed out';
  }
  if ('delay' in r) return `Delay of ${r.delay} s${r.done ? '' : ' (not over)'}`;
  if ('event' in r) return `Fired event ${r.event}`;
  if ('stop' in r) return `Stopped: ${r.stop}`;
  if ('result' in r) return r.result ? 'Passed' : 'Did not pass';
  return jsonText(r);
}

/** Every step of a trace in the order it happened (the paths keep the order first reached; a repeat's steps interleave). */
function stepsInOrder(/** @type {Record<string, Step[]>} */ trace) {
  const all = Object.values(trace).flat();
  return all
    .map((step, i) => ({ step, i }))
    .sort((a, b) => a.step.timestamp.localeCompare(b.step.timestamp) || a.i - b.i)
    .map((x) => x.step);
}

/** @param {{ hub: Hub, domain: string, itemId: string, runId: string }} props */
function RunSteps({ hub, domain, itemId, runId }) {
  const [trace, setTrace] = useState(/** @type {any} */ (null));
  const [error, setError] = useState(/** @type {string | null} */ (null));
  useEffect(() => {
    let live = true;
    setTrace(null);
    hub.command({ type: 'trace/get', domain, item_id: itemId, run_id: runId }).then(
      (t) => live && setTrace(t),
      (/** @type {Error} */ err) => live && setError(err.message),
    );
    return () => {
      live = false;
    };
  }, [runId]);
  if (error !== null) return html`<p class="problem" role="alert">Could not load the run: ${error}</p>`;
  if (trace === null) return html`<p class="loading">Loading…</p>`;
  const steps = stepsInOrder(trace.trace);
  const config = trace.config ?? {};
  return html`<div class="run-steps" data-run=${runId}>
    ${trace.error !== undefined ? html`<p class="problem">${trace.error}</p>` : null}
    ${trace.steps_dropped > 0 ? html`<p class="detail">${trace.steps_dropped} more steps were not kept.</p>` : null}
    <ol class="steps">${steps.map(
      (step, i) => html`<li key=${i} class=${step.error !== undefined ? 'step failed' : 'step'} data-path=${step.path}>
        <strong class="where" title=${step.path}>${stepTitle(step.path, config)}</strong>
        <span class="result">${resultText(step)}</span>
        ${step.error !== undefined ? html`<span class="error">${step.error}</span>` : null}
        ${step.changed_variables !== undefined ? html`<details open=${!step.path.startsWith('trigger') && jsonText(step.changed_variables).length < 300}><summary>Changed variables: ${Object.keys(step.changed_variables).join(', ')}</summary><pre>${jsonText(step.changed_variables)}</pre></details>` : null}
      </li>`,
    )}</ol>
  </div>`;
}

/** The runs and the chosen run's steps; in the dialog with a close button, on the trace page without. @param {{ hub: Hub, domain: string, itemId: string, name: string, close?: () => void }} props */
export function TracesView({ hub, domain, itemId, name, close }) {
  const [runs, setRuns] = useState(/** @type {RunSummary[] | null} */ (null));
  const [chosen, setChosen] = useState(/** @type {string | null} */ (null));
  const [error, setError] = useState(/** @type {string | null} */ (null));
  useEffect(() => {
    hub.command({ type: 'trace/list', domain, item_id: itemId }).then(
      (/** @type {RunSummary[]} */ list) => {
        const newest = list.slice().reverse();
        setRuns(newest);
        setChosen(newest[0]?.run_id ?? null);
      },
      (/** @type {Error} */ err) => setError(err.message),
    );
  }, []);
  return html`<div class="traces"><form method="dialog" class="history-head">
    <h2 id="traces-title">${name}: last runs</h2>
    ${close === undefined ? null : html`<button class="close" aria-label="Close" onClick=${close}>×</button>`}
  </form>
  ${error !== null ? html`<p class="problem" role="alert">Could not load the runs: ${error}</p>` : runs === null ? html`<p class="loading">Loading…</p>` : runs.length === 0 ? html`<p class="empty">No runs yet.</p>` : null}
  ${
    runs !== null && runs.length > 0
      ? html`<ul class="runs" aria-label="Runs">${runs.map(
          (
            run,
          ) => html`<li key=${run.run_id}><button type="button" class=${run.run_id === chosen ? 'on' : ''} aria-pressed=${run.run_id === chosen} data-run=${run.run_id} data-outcome=${run.script_execution ?? run.state} onClick=${() => setChosen(run.run_id)}>
      <time>${timeText(run.timestamp.start)}</time>
      ${run.trigger !== undefined ? html`<span class="trigger">${run.trigger ?? 'manual'}</span>` : null}
      <span class="outcome">${outcomeText(run)}</span>
    </button></li>`,
        )}</ul>`
      : null
  }
  ${chosen !== null ? html`<${RunSteps} key=${chosen} hub=${hub} domain=${domain} itemId=${itemId} runId=${chosen} />` : null}</div>`;
}

/**
 * Opens the last runs of an automation or script; Escape or the close button closes it and gives focus back.
 * @param {{ hub: Hub, domain: string, itemId: string, name: string }} props
 */
export function openTraces({ hub, domain, itemId, name }) {
  openModal({
    id: 'traces-dialog',
    className: 'history traces',
    labelledBy: 'traces-title',
    content: (close) =>
      html`<${TracesView} key=${`${domain}.${itemId}`} hub=${hub} domain=${domain} itemId=${itemId} name=${name} close=${close} />`,
  });
}
