import { HubError } from '../../core/errors.js';
import type { ApiContext } from '../../http/context.js';
import { JSON_TYPE, type Reply, type Request } from '../../http/http.js';
import { queryValue } from '../../http/query.js';
import type { HttpServer } from '../../http/server.js';
import type { HistoryReader } from '../../recorder/types.js';
import { localDayStart } from '../history/local-day.js';
import { logbookFilter, logbookJson } from '../history/logbook-json.js';
import { checkOrder, endTime, entityList, pathStart } from '../history/period.js';
import type { RequestAuth } from './auth-check.js';
import { pathParam } from './params.js';

const DAY_US = 24 * 3600 * 1_000_000;

/**
 * GET `/api/logbook[/<start>]` (Home Assistant's components/logbook/rest_api.py): the start defaults to the start
 * of the local day, the end to `period` days (default 1) after it; `entity` (comma-separated) and `context_id`
 * narrow it, but not together.
 */
export function registerLogbook(server: HttpServer, ctx: ApiContext, auth: RequestAuth, history: HistoryReader): void {
  const handler = auth.guard((req, reply) => answer(ctx, history, req, reply));
  server.resource('/api/logbook', { get: handler });
  server.resource('/api/logbook/:start', { get: handler });
}

function answer(ctx: ApiContext, history: HistoryReader, req: Request, reply: Reply): void {
  const startUs = pathStart(
    req.params.length > 0 ? pathParam(req, 0, 'start') : undefined,
    localDayStart(ctx.core.clock.now(), ctx.config.hub.time_zone),
  );
  const periodText = queryValue(req.query, 'period');
  const period = periodText === undefined ? 1 : Number(periodText);
  if (!Number.isInteger(period) || period < 1 || period > 365)
    throw new HubError('invalid_format', 'Invalid period: expected a whole number of days from 1 to 365');
  const endText = queryValue(req.query, 'end_time');
  const endUs = endText === undefined ? startUs + period * DAY_US : endTime(endText);
  checkOrder(startUs, endUs);
  const entity = queryValue(req.query, 'entity');
  const contextId = queryValue(req.query, 'context_id');
  if (entity !== undefined && contextId !== undefined) throw new HubError('invalid_format', "Can't combine entity with context_id");
  const entityIds = entity === undefined ? undefined : entityList(entity, 'entity');
  const filter = logbookFilter(ctx.config);
  reply.send(200, logbookJson(ctx.core, history, { startUs, endUs, entityIds, contextId, when: 'iso', filter }), JSON_TYPE);
}
