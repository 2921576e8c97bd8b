import { HubError } from '../../core/errors.js';
import type { ApiContext } from '../../http/context.js';
import { JSON_TYPE, type Reply, type Request } from '../../http/http.js';
import { hasQueryKey, queryValue } from '../../http/query.js';
import type { HttpServer } from '../../http/server.js';
import type { HistoryReader } from '../../recorder/types.js';
import { restHistoryJson } from '../history/history-json.js';
import { checkOrder, endTime, entityList, pathStart } from '../history/period.js';
import type { RequestAuth } from './auth-check.js';
import { pathParam } from './params.js';

const DAY_US = 24 * 3600 * 1_000_000;

/**
 * GET `/api/history/period[/<start>]` (Home Assistant's components/history/__init__.py): the start defaults to a
 * day ago and the end to a day after the start; `filter_entity_id` is required; `minimal_response` and
 * `no_attributes` by presence; `significant_changes_only=0` turns that filter off; `skip_initial_state` leaves
 * out the state each entity was in at the start. A start in the future is `[]`.
 */
export function registerHistory(server: HttpServer, ctx: ApiContext, auth: RequestAuth, history: HistoryReader): void {
  const handler = auth.guard((req, reply) => answer(ctx, history, req, reply));
  server.resource('/api/history/period', { get: handler });
  server.resource('/api/history/period/:start', { get: handler });
}

function answer(ctx: ApiContext, history: HistoryReader, req: Request, reply: Reply): void {
  const now = ctx.core.clock.now();
  const startUs = pathStart(req.params.length > 0 ? pathParam(req, 0, 'start') : undefined, now - DAY_US);
  const endText = queryValue(req.query, 'end_time');
  const endUs = endText === undefined ? startUs + DAY_US : endTime(endText);
  checkOrder(startUs, endUs);
  const filter = queryValue(req.query, 'filter_entity_id');
  if (filter === undefined) throw new HubError('invalid_format', 'filter_entity_id is missing');
  const ids = entityList(filter, 'filter_entity_id');
  if (startUs > now) {
    reply.send(200, '[]', JSON_TYPE);
    return;
  }
  const json = restHistoryJson(history, ids, {
    startUs,
    endUs,
    includeStartState: !hasQueryKey(req.query, 'skip_initial_state'),
    significantChangesOnly: queryValue(req.query, 'significant_changes_only') !== '0',
    minimalResponse: hasQueryKey(req.query, 'minimal_response'),
    noAttributes: hasQueryKey(req.query, 'no_attributes'),
  });
  reply.send(200, json, JSON_TYPE);
}
