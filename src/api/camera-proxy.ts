import { type CameraImageRequest, fetchCameraImage, findCamera } from '../domains/camera.js';
import type { ApiContext } from '../http/context.js';
import type { Reply } from '../http/http.js';
import { queryValue } from '../http/query.js';
import type { HttpServer } from '../http/server.js';
import { bearerToken } from './auth-header.js';

/** Bounds for `?width=` / `?height=`: generous for any screen, small enough that no camera is asked for a poster. */
const MAX_IMAGE_SIDE = 8192;

/** A query parameter, or undefined when absent or not decodable (a bad token is simply not a match). */
function queryParam(query: string, key: string): string | undefined {
  try {
    return queryValue(query, key);
  } catch {
    return undefined;
  }
}

/** `?width=&height=`, each optional; undefined (after answering 400) when one is not a usable number. */
function imageSize(query: string, reply: Reply): CameraImageRequest | undefined {
  const out: { width?: number; height?: number } = {};
  for (const key of ['width', 'height'] as const) {
    const raw = queryParam(query, key);
    if (raw === undefined || raw === '') continue;
    const n = Number(raw);
    if (!/^\d+$/.test(raw) || n < 1 || n > MAX_IMAGE_SIDE) {
      reply.message(400, `${key} must be a whole number from 1 to ${MAX_IMAGE_SIDE}, got ${JSON.stringify(raw.slice(0, 20))}`);
      return undefined;
    }
    out[key] = n;
  }
  return out;
}

/** A content type safe to put in a header line whatever a driver hands back. */
function safeContentType(type: string): string {
  return /^[\w.+-]+\/[\w.+-]+(?:\s*;[\w\s=."+-]*)?$/.test(type) ? type : 'application/octet-stream';
}

/**
 * GET /api/camera_proxy/<entity_id>: a camera's still image, with Home Assistant's checks in its order
 * (camera/__init__.py CameraView): unknown camera 404; neither a valid bearer token nor `?token=` one of
 * the camera's current access tokens: 401 when an Authorization header was sent (so it counts as a failed
 * login), else 403; camera off 503. An image the camera cannot give is 503 with a message (the cause is
 * logged): the fault is the device's, not the hub's, and dashboards retry a 503.
 */
export function registerCameraProxy(server: HttpServer, ctx: ApiContext): void {
  const log = ctx.log.child({ module: 'camera-proxy' });
  server.resource('/api/camera_proxy/:entity_id', {
    get: async (req, reply) => {
      let entityId: string;
      try {
        entityId = decodeURIComponent(req.params[0] ?? '');
      } catch {
        entityId = '';
      }
      const camera = findCamera(ctx.core, entityId);
      if (camera === undefined) {
        reply.text(404, '404: Not Found');
        return;
      }
      const bearer = bearerToken(req.authorization);
      const token = queryParam(req.query, 'token');
      const authenticated =
        (bearer !== undefined && ctx.auth.authenticate(bearer) !== undefined) || (token !== undefined && camera.hasToken(token));
      if (!authenticated) {
        // Home Assistant tells the two apart by whether an Authorization header was sent at all, whatever
        // its scheme (`hdrs.AUTHORIZATION in request.headers`), so that a bad one counts as a failed login.
        if (req.authorization !== '') reply.text(401, '401: Unauthorized');
        else reply.text(403, '403: Forbidden');
        return;
      }
      if (!camera.isOn) {
        reply.text(503, '503: Service Unavailable');
        return;
      }
      const size = imageSize(req.query, reply);
      if (size === undefined) return;
      try {
        const image = await fetchCameraImage(camera.platform, size);
        reply.send(200, image.body, safeContentType(image.contentType), [['Cache-Control', 'no-store']]);
      } catch (err) {
        log.warn({ entity_id: entityId, err: err instanceof Error ? err.message : String(err) }, 'camera image failed');
        reply.message(503, `Unable to get an image from ${entityId}`);
      }
    },
  });
}
