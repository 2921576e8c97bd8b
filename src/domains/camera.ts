import { randomBytes } from 'node:crypto';
import { lstat, mkdir, realpath, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import type { Core } from '../core/core.js';
import type { Entity, EntityInit } from '../core/entities.js';
import { HubError } from '../core/errors.js';
import type { JsonValue } from '../core/json.js';
import type { Logger } from '../core/log.js';
import { isTemplate } from '../core/template-text.js';
import type { Timers } from '../util/timers.js';
import { type Domain, dataOf, platformOf, registerEntityServices } from './domain.js';

export const CameraFeature = { ON_OFF: 1, STREAM: 2 } as const;

export type CameraState = 'idle' | 'streaming' | 'recording';

export interface CameraImage {
  readonly contentType: string;
  readonly body: Buffer;
}

/** A size the client would like (`?width=&height=`); cameras may ignore it, as most of Home Assistant's do. */
export interface CameraImageRequest {
  readonly width?: number;
  readonly height?: number;
}

export interface CameraPlatform {
  turnOn(): void | Promise<void>;
  turnOff(): void | Promise<void>;
  enableMotionDetection(): void | Promise<void>;
  disableMotionDetection(): void | Promise<void>;
  /** The current still image; rejects when the camera cannot give one. */
  image(request?: CameraImageRequest): Promise<CameraImage>;
}

/** What a camera is: drivers report this, the domain renders Home Assistant's state and attributes. */
export interface CameraModel {
  /** Off cameras still show `idle` (as in Home Assistant); their images are refused with 503. */
  readonly on: boolean;
  readonly recording?: boolean;
  readonly streaming?: boolean;
  readonly motionDetection?: boolean;
}

export interface CameraOptions extends Omit<EntityInit<CameraPlatform>, 'fixed'> {
  readonly brand?: string;
  readonly model?: string;
  readonly supportedFeatures?: number;
  readonly icon?: string;
  /** The driver's timers: the access token rotates on them, so rotation stops with the driver. */
  readonly timers: Timers;
  /**
   * The only folder `camera.snapshot` may write into (relative file names land in it). Without one,
   * every snapshot is refused with Home Assistant's allowlist message.
   */
  readonly snapshotDir?: string;
}

/** Home Assistant's TOKEN_CHANGE_INTERVAL. */
export const TOKEN_ROTATION_MS = 5 * 60 * 1000;
/** The current token and the one before stay valid (a deque of length 2), so a dashboard mid-refresh keeps working. */
const VALID_TOKENS = 2;
/** Home Assistant's CAMERA_IMAGE_TIMEOUT. */
export const CAMERA_IMAGE_TIMEOUT_MS = 10_000;

/** What the camera proxy and the snapshot service need of a camera, beyond its entity. */
export interface CameraAccess {
  readonly entity: Entity<CameraPlatform>;
  readonly platform: CameraPlatform;
  /** On and available: an off or unavailable camera has no image to give. */
  readonly isOn: boolean;
  hasToken(token: string): boolean;
}

interface CameraRuntime {
  readonly tokens: string[];
  model: CameraModel | null | undefined;
  readonly snapshotDir: string | undefined;
}

// Keyed by the entity object, so a removed camera's runtime goes with it.

export interface CameraHandle {
  readonly entity: Entity<CameraPlatform>;
  report(model: CameraModel | null): void;
  /** The valid access tokens, oldest first; the last one is in the attributes. */
  readonly accessTokens: readonly string[];
  /** Rotates the access token now (the timer does it every 5 minutes) and rewrites the state. */
  rotateToken(): void;
}

function newToken(): string {
  // The token is a credential for the image, so it comes from the CSPRNG, as Home Assistant's SystemRandom.
  return randomBytes(32).toString('hex');
}

export function addCamera(core: Core, options: CameraOptions): CameraHandle {
  const fixed: Record<string, JsonValue> = {};
  if (options.icon) fixed.icon = options.icon;
  fixed.supported_features = options.supportedFeatures ?? CameraFeature.ON_OFF;
  const { timers, snapshotDir, brand, model: modelName, supportedFeatures: _f, icon: _i, ...init } = options;
  const runtime: CameraRuntime = { tokens: [newToken()], model: undefined, snapshotDir };
  const entity = core.entities.add({ ...init, fixed, data: runtime });

  const render = (model: CameraModel | null): void => {
    runtime.model = model;
    if (model === null) {
      entity.report(null);
      return;
    }
    const token = runtime.tokens[runtime.tokens.length - 1] as string;
    const attrs: Record<string, JsonValue> = { access_token: token };
    if (modelName) attrs.model_name = modelName;
    if (brand) attrs.brand = brand;
    // As Home Assistant: the key is there only while motion detection is on.
    if (model.motionDetection) attrs.motion_detection = true;
    attrs.entity_picture = `/api/camera_proxy/${entity.id}?token=${token}`;
    entity.report(model.recording ? 'recording' : model.streaming ? 'streaming' : 'idle', attrs);
  };

  const handle: CameraHandle = {
    entity,
    report: render,
    get accessTokens() {
      return runtime.tokens;
    },
    rotateToken() {
      runtime.tokens.push(newToken());
      if (runtime.tokens.length > VALID_TOKENS) runtime.tokens.shift();
      // The fresh token reaches clients through entity_picture; an unavailable camera shows none.
      if (runtime.model !== undefined && entity.available) render(runtime.model);
    },
  };
  timers.interval(() => handle.rotateToken(), TOKEN_ROTATION_MS);
  return handle;
}

/** The camera behind an entity id, or undefined when there is no such camera. */
export function findCamera(core: Core, entityId: string): CameraAccess | undefined {
  const entity = core.entities.get(entityId);
  if (entity === undefined || entity.domain !== 'camera') return undefined;
  const runtime = dataOf<CameraRuntime>(entity, 'camera');
  if (runtime === undefined) return undefined;
  return {
    entity: entity as Entity<CameraPlatform>,
    platform: entity.platform as CameraPlatform,
    isOn: entity.available && runtime.model?.on === true,
    hasToken: (token) => runtime.tokens.includes(token),
  };
}

/** The camera's image within Home Assistant's 10 s; a timeout or a failure rejects with the cause. */
export async function fetchCameraImage(platform: CameraPlatform, request?: CameraImageRequest): Promise<CameraImage> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no image within ${CAMERA_IMAGE_TIMEOUT_MS / 1000} s`)), CAMERA_IMAGE_TIMEOUT_MS);
  });
  try {
    const image = await Promise.race([platform.image(request), timeout]);
    if (!Buffer.isBuffer(image.body) || image.body.length === 0) throw new Error('the camera returned an empty image');
    return image;
  } finally {
    clearTimeout(timer);
  }
}

/** Longest snapshot file name accepted, so a client cannot hand the file system an absurd path. */
const MAX_FILENAME = 1024;
const TEMPLATE_VAR = /\{\{\s*entity_id(?:\.(entity_id|object_id|name))?\s*\}\}/g;

/**
 * Renders the few template forms Home Assistant's snapshot examples use (`{{ entity_id.entity_id }}`,
 * `.object_id`, `.name`); hearth has no Jinja, so anything else is refused rather than written literally.
 */
function renderFilename(template: string, entity: Entity): string {
  const name = typeof entity.fixed.friendly_name === 'string' ? entity.fixed.friendly_name : entity.id;
  const out = template.replace(TEMPLATE_VAR, (_m, field: string | undefined) => {
    if (field === 'object_id') return entity.id.slice(entity.id.indexOf('.') + 1);
    if (field === 'name') return name;
    return entity.id;
  });
  if (isTemplate(out)) {
    throw new HubError(
      'service_validation',
      `Template in filename is not supported: use {{ entity_id.entity_id }}, {{ entity_id.object_id }} or {{ entity_id.name }}`,
    );
  }
  return out;
}

function notAllowed(file: string): HubError {
  return new HubError(
    'hub_error',
    `Cannot write \`${file}\`, no access to path; \`allowlist_external_dirs\` may need to be adjusted in \`configuration.yaml\``,
  );
}

function inside(root: string, target: string): boolean {
  const rel = relative(root, target);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

/**
 * camera.snapshot: writes the current image to a file inside the camera's snapshot folder (the hub's data
 * folder), the one place hearth lets a service write. A path outside it, also through a symlink, gets
 * Home Assistant's allowlist error.
 */
async function snapshot(entity: Entity, filename: string, log: Logger): Promise<void> {
  const file = renderFilename(filename, entity);
  const dir = dataOf<CameraRuntime>(entity, 'camera')?.snapshotDir;
  if (dir === undefined) throw notAllowed(file);
  const root = resolve(dir);
  const target = resolve(root, file);
  if (!inside(root, target)) throw notAllowed(file);

  let image: CameraImage;
  try {
    image = await fetchCameraImage(platformOf<CameraPlatform>(entity, 'camera'));
  } catch (err) {
    log.warn({ entity_id: entity.id, err: (err as Error).message }, 'snapshot: no image from camera');
    throw new HubError('hub_error', `Unable to get image from ${entity.id}`);
  }
  try {
    // With symlinks resolved, the folder the file lands in must still be the snapshot folder or below it.
    // The deepest folder that exists is checked before any is created, so no folder appears outside.
    await mkdir(root, { recursive: true, mode: 0o700 });
    const realRoot = await realpath(root);
    const within = async (path: string) => {
      const real = await realpath(path);
      return real === realRoot || inside(realRoot, real);
    };
    let existing = dirname(target);
    while (existing !== root && (await lstat(existing).catch(() => undefined)) === undefined) existing = dirname(existing);
    if (!(await within(existing))) throw notAllowed(file);
    await mkdir(dirname(target), { recursive: true, mode: 0o700 });
    if (!(await within(dirname(target)))) throw notAllowed(file);
    const current = await lstat(target).catch(() => undefined);
    if (current?.isSymbolicLink() || current?.isDirectory()) throw notAllowed(file);
    await writeFile(target, image.body, { mode: 0o600 });
  } catch (err) {
    if (err instanceof HubError) throw err;
    log.error({ entity_id: entity.id, err: (err as Error).message }, "Can't write image to file");
    throw new HubError('hub_error', `Can't write image to file: ${(err as NodeJS.ErrnoException).code ?? 'error'}`);
  }
}

export const cameraDomain: Domain = {
  name: 'camera',
  registerServices(core: Core): void {
    const log = core.log.child({ domain: 'camera' });
    const p = (e: Entity) => platformOf<CameraPlatform>(e, 'camera');
    registerEntityServices(core, 'camera', [
      {
        service: 'turn_on',
        name: 'Turn on',
        description: 'Turns on the camera.',
        schema: { fields: {} },
        run: (e) => p(e).turnOn(),
      },
      {
        service: 'turn_off',
        name: 'Turn off',
        description: 'Turns off the camera.',
        schema: { fields: {} },
        run: (e) => p(e).turnOff(),
      },
      {
        service: 'enable_motion_detection',
        name: 'Enable motion detection',
        description: 'Enables the motion detection.',
        schema: { fields: {} },
        run: (e) => p(e).enableMotionDetection(),
      },
      {
        service: 'disable_motion_detection',
        name: 'Disable motion detection',
        description: 'Disables the motion detection.',
        schema: { fields: {} },
        run: (e) => p(e).disableMotionDetection(),
      },
      {
        service: 'snapshot',
        name: 'Take snapshot',
        description: "Takes a snapshot from a camera and saves it in the hub's snapshot folder.",
        schema: {
          fields: {
            filename: {
              kind: 'text',
              required: true,
              maxLength: MAX_FILENAME,
              example: 'snapshot_{{ entity_id.object_id }}.png',
              description: 'File name, relative to the snapshot folder in the data directory.',
            },
          },
        },
        run: (e, data) => snapshot(e, String(data.filename), log),
      },
    ]);
  },
  async reproduceState(core, entityId, desired, context) {
    // A camera's state (idle/recording/streaming) is not something to ask for; motion detection is.
    const wanted = desired.attributes.motion_detection;
    const current = core.states.get(entityId)?.attributes.motion_detection === true;
    const enable = wanted === true;
    if (enable === current) return;
    await core.services.call(
      'camera',
      enable ? 'enable_motion_detection' : 'disable_motion_detection',
      { entity_id: entityId },
      { context },
    );
  },
};
