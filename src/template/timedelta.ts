import { type BinaryOp, NOT_SUPPORTED, TemplateObject, templateCallable } from './objects.js';
import { num, pyFloat } from './py-float.js';

/** Python's datetime.timedelta, in microseconds. */
export class PyTimedelta extends TemplateObject {
  override readonly pyType = 'datetime.timedelta';

  constructor(readonly us: number) {
    super();
  }

  override valueOf(): number {
    return this.us;
  }

  getAttr(name: string): unknown {
    const days = Math.floor(this.us / 86_400_000_000);
    const rest = this.us - days * 86_400_000_000;
    switch (name) {
      case 'days':
        return days;
      case 'seconds':
        return Math.floor(rest / 1_000_000);
      case 'microseconds':
        return rest % 1_000_000;
      case 'total_seconds':
        return templateCallable(() => pyFloat(this.us / 1_000_000));
      default:
        return undefined;
    }
  }

  /** `1 day, 2:03:04`, `0:05:00`, `-1 day, 23:59:00` as Python prints them. */
  pyStr(): string {
    const days = Math.floor(this.us / 86_400_000_000);
    let rest = this.us - days * 86_400_000_000;
    const micro = rest % 1_000_000;
    rest = Math.floor(rest / 1_000_000);
    const hms = `${Math.floor(rest / 3600)}:${String(Math.floor(rest / 60) % 60).padStart(2, '0')}:${String(rest % 60).padStart(2, '0')}`;
    const frac = micro === 0 ? '' : `.${String(micro).padStart(6, '0')}`;
    const dayPart = days === 0 ? '' : `${days} day${Math.abs(days) === 1 ? '' : 's'}, `;
    return `${dayPart}${hms}${frac}`;
  }

  override pyRepr(): string {
    return `datetime.timedelta(microseconds=${this.us})`;
  }

  override pyEquals(other: unknown): boolean {
    return other instanceof PyTimedelta && other.us === this.us;
  }

  override pyCompare(other: unknown): number | undefined {
    return other instanceof PyTimedelta ? this.us - other.us : undefined;
  }

  override pyBinary(op: BinaryOp, other: unknown, reflected: boolean): unknown {
    if (other instanceof PyTimedelta) {
      if (op === '+') return new PyTimedelta(this.us + other.us);
      if (op === '-') return new PyTimedelta(reflected ? other.us - this.us : this.us - other.us);
    }
    const factor = num(other);
    if (op === '*' && factor !== undefined && typeof other !== 'boolean') return new PyTimedelta(Math.round(this.us * factor));
    return NOT_SUPPORTED;
  }
}
