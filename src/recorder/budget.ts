import type { Logger } from '../core/log.js';

/** What a change whose attributes are not kept records instead (Home Assistant's recorder does the same past 16 KB). */
export const NO_ATTRIBUTES = '{}';

/** Entities named in a warning for attributes over their share; past it, further ones are counted, not named. */
const MAX_NAMED = 64;

/** One stretch of time over the budget: why, and what it cost. */
interface Episode {
  readonly diskRefuses: boolean;
  bare: number;
  dropped: number;
}

/**
 * The recorder's memory rule. What it holds (the hot hour, sealed chunks not yet written, the read cache)
 * stays within `limit`:
 * - past `sealMark` the hot tier is sealed early, so a flood of changes or of large attributes is written
 *   out rather than dropped, and the rest of the budget absorbs what comes while the write is under way;
 * - a single state whose attributes exceed `entityShare` is recorded without them, with one warning
 *   naming the entity (one entity must not take the history of all the others with it);
 * - only when changes come faster than they are written (or the disk refuses writes) does the budget run
 *   out: changes are then recorded without attributes that are new to their series, and past `ceiling`
 *   not at all, each stretch logged once with its true cause and once more with its count when it ends.
 */
export class HistoryBudget {
  readonly sealMark: number;
  readonly entityShare: number;
  private readonly ceiling: number;
  private readonly named = new Set<string>();
  private unnamed = 0;
  private episode: Episode | undefined;

  constructor(
    readonly limit: number,
    private readonly log: Logger,
  ) {
    this.sealMark = Math.floor(limit / 4);
    this.entityShare = Math.floor(limit / 64);
    this.ceiling = limit + Math.floor(limit / 8);
  }

  /** Whether a change with these attributes needs `admit` (a comparison on the hot path). */
  needsDecision(attributesChars: number, heldBytes: number): boolean {
    return attributesChars > this.entityShare || heldBytes + attributesChars > this.limit;
  }

  /**
   * The attributes to record with one change: its own, NO_ATTRIBUTES, or undefined when the change is not
   * recorded. `held`: bytes of the hot tier and the unwritten chunks; `known`: the series holds these
   * attributes already, so keeping them costs nothing.
   */
  admit(entityId: string, attributesJson: string, held: number, known: boolean, diskRefuses: boolean): string | undefined {
    let attrs = attributesJson;
    let cost = known ? 0 : attrs.length;
    if (attrs.length > this.entityShare) {
      this.oversized(entityId, attrs.length);
      attrs = NO_ATTRIBUTES;
      cost = attrs.length;
    }
    if (held + cost <= this.limit) return attrs;
    const episode = this.begin(entityId, held, diskRefuses);
    if (held > this.ceiling) {
      episode.dropped++;
      return undefined;
    }
    if (cost === 0) return attrs;
    episode.bare++;
    return NO_ATTRIBUTES;
  }

  /** After a write: a stretch over the budget ends once what is held is back under half of it. */
  relieved(held: number): void {
    const episode = this.episode;
    if (episode === undefined || held > this.limit / 2) return;
    this.episode = undefined;
    this.log.info(
      { recordedWithoutAttributes: episode.bare, notRecorded: episode.dropped },
      `history is within its memory budget again: ${episode.bare} changes were recorded without their attributes, ${episode.dropped} not at all`,
    );
  }

  private oversized(entityId: string, chars: number): void {
    if (this.named.has(entityId)) return;
    if (this.named.size >= MAX_NAMED) {
      if (this.unnamed++ === 0) {
        this.log.warn(`history: more entities have attributes over their share of memory; they are recorded without them, not named`);
      }
      return;
    }
    this.named.add(entityId);
    this.log.warn(
      { entity_id: entityId, chars, share: this.entityShare },
      `history: the attributes of ${entityId} are ${kb(chars)}, more than one entity's share of the recorder's memory (${kb(this.entityShare)}); its changes are recorded without attributes`,
    );
  }

  private begin(entityId: string, held: number, diskRefuses: boolean): Episode {
    if (this.episode !== undefined) return this.episode;
    const episode: Episode = { diskRefuses, bare: 0, dropped: 0 };
    this.episode = episode;
    const budget = kb(this.limit);
    if (diskRefuses) {
      this.log.error(
        { held, limit: this.limit, entity_id: entityId },
        `history: its memory budget (${budget}) is used up while the disk refuses writes; changes are recorded without new attributes, then not at all, until it takes writes again`,
      );
    } else {
      this.log.warn(
        { held, limit: this.limit, entity_id: entityId },
        `history: changes come in faster than they are written out (${budget} held, the budget); changes are recorded without new attributes (${entityId} first) until the writes catch up`,
      );
    }
    return episode;
  }
}

function kb(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.round(bytes / 1024)} KB`;
}
