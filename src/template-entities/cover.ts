import type { JsonValue } from '../core/json.js';
import { addCover, type CoverDeviceClass, CoverFeature, type CoverPlatform } from '../domains/cover.js';
import { baseOf, type DeviceContext, type DeviceEntity, floatOf, onceLogger, withCustom } from './device.js';
import type { Presented } from './entity.js';
import { actionRunner } from './scripts.js';

const VALID_STATES = ['open', 'opening', 'closed', 'closing', 'true', 'false', 'none'];
const TILT_FEATURES = CoverFeature.OPEN_TILT | CoverFeature.CLOSE_TILT | CoverFeature.STOP_TILT | CoverFeature.SET_TILT_POSITION;

/**
 * A template cover (homeassistant/components/template/cover.py): its state template says open, opening, closed or
 * closing (or true/false), its position and tilt templates 0-100; open/close run their actions (or
 * set_cover_position with position 100/0), set_cover_position and set_cover_tilt_position run theirs with
 * `position` and `tilt`. Without a state or position template (or with `optimistic: true`) the cover takes what it
 * was asked at once (assumed state); without a tilt template (or with `tilt_optimistic`) its tilt too.
 */
export function addTemplateCover(d: DeviceContext): DeviceEntity {
  const { ctx, device } = d;
  const templates = device.templates;
  const run = (name: string) => {
    const actions = device.actions.get(name);
    return actions === undefined ? undefined : actionRunner(ctx, d.entityId, name, actions);
  };
  const open = run('open_cover');
  const close = run('close_cover');
  const stop = run('stop_cover');
  const setPosition = run('set_cover_position');
  const setTilt = run('set_cover_tilt_position');
  const assumed = device.optimistic ?? (d.def.state === undefined && !templates.has('position'));
  const tiltOptimistic = device.tiltOptimistic === true || !templates.has('tilt');
  const hasPosition = templates.has('position') || setPosition !== undefined;
  const rejected = onceLogger(d);
  const m = { position: null as number | null, tilt: null as number | null, opening: false, closing: false };
  let custom: Record<string, JsonValue> = {};

  const present = (): Presented => {
    const attributes: Record<string, JsonValue> = {};
    if (hasPosition && m.position !== null) attributes.current_position = m.position;
    if (m.tilt !== null) attributes.current_tilt_position = m.tilt;
    if (assumed) attributes.assumed_state = true;
    const state = m.opening ? 'opening' : m.closing ? 'closing' : m.position === null ? null : m.position === 0 ? 'closed' : 'open';
    return { state, attributes: withCustom(attributes, custom) };
  };
  const write = () => d.writer().writePresented(present());

  /** _update_opening_and_closing: the state template's text. */
  const readState = (text: string | null) => {
    const state = (text ?? 'none').toLowerCase();
    if (VALID_STATES.includes(state)) {
      if (!templates.has('position')) m.position = state === 'true' || state === 'open' ? 100 : 0;
      m.opening = state === 'opening';
      m.closing = state === 'closing';
      return;
    }
    rejected('state', `Received invalid cover is_on state: ${state} for entity ${d.entityId}. Expected: ${VALID_STATES.join(', ')}`);
    if (!templates.has('position')) m.position = null;
    m.opening = false;
    m.closing = false;
  };
  /** _update_position and _update_tilt: a number 0-100, else unknown. */
  const readPercent = (value: JsonValue | undefined, what: string): number | null => {
    if (value === null || value === undefined) return null;
    const n = floatOf(value);
    if (n === undefined) {
      rejected(what, `could not convert ${what} to float: ${JSON.stringify(value)}`);
      return null;
    }
    if (n < 0 || n > 100) {
      rejected(what, `${what === 'tilt' ? 'Tilt value' : 'Cover position value'} must be between 0 and 100. Value was: ${n.toFixed(2)}`);
      return null;
    }
    return n;
  };

  const runOpenClose = async (target: 0 | 100, actions: typeof open) => {
    const context = ctx.core.newContext();
    if (actions !== undefined) await actions({}, context);
    else if (setPosition !== undefined) await setPosition({ position: target }, context);
    if (assumed) {
      m.position = target;
      write();
    }
  };
  const runTilt = async (tilt: number) => {
    m.tilt = tilt;
    await setTilt?.({ tilt }, ctx.core.newContext());
    if (tiltOptimistic) write();
  };
  const platform: CoverPlatform = {
    openCover: () => runOpenClose(100, open),
    closeCover: () => runOpenClose(0, close),
    stopCover: async () => {
      await stop?.({}, ctx.core.newContext());
    },
    setCoverPosition: async (position) => {
      m.position = position;
      await setPosition?.({ position }, ctx.core.newContext());
      if (assumed) write();
    },
    openCoverTilt: () => runTilt(100),
    closeCoverTilt: () => runTilt(0),
    stopCoverTilt: () => undefined,
    setCoverTiltPosition: runTilt,
  };
  let features = CoverFeature.OPEN | CoverFeature.CLOSE;
  if (stop !== undefined) features |= CoverFeature.STOP;
  if (setPosition !== undefined) features |= CoverFeature.SET_POSITION;
  if (setTilt !== undefined) features |= TILT_FEATURES;
  const handle = addCover(ctx.core, {
    ...baseOf(d),
    deviceClass: d.def.deviceClass as CoverDeviceClass | undefined,
    supportedFeatures: features,
    platform,
  });
  return {
    entity: handle.entity,
    adapt: (result) => {
      custom = result.attributes;
      if (d.def.state !== undefined) readState(result.state ?? null);
      if (templates.has('position')) m.position = readPercent(result.values?.get('position'), 'position');
      if (templates.has('tilt')) m.tilt = readPercent(result.values?.get('tilt'), 'tilt');
      return present();
    },
  };
}
