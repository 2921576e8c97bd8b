/**
 * What one render read, so a subscription knows when to render again (Home Assistant's RenderInfo): single
 * entities, whole domains (`states.sensor` iterated), everything (`states` iterated), and the time (`now()`).
 */
export class RenderInfo {
  readonly entities = new Set<string>();
  readonly domains = new Set<string>();
  all = false;
  time = false;

  entity(entityId: string): void {
    this.entities.add(entityId);
  }

  domain(domain: string): void {
    this.domains.add(domain);
  }

  /** Whether a change of this entity can change the output. */
  covers(entityId: string): boolean {
    if (this.all || this.entities.has(entityId)) return true;
    if (this.domains.size === 0) return false;
    const dot = entityId.indexOf('.');
    return this.domains.has(entityId.slice(0, dot));
  }

  /** `listeners` as render_template reports them. */
  listeners(): { all: boolean; domains: string[]; entities: string[]; time: boolean } {
    return { all: this.all, domains: [...this.domains].sort(), entities: [...this.entities].sort(), time: this.time };
  }
}
