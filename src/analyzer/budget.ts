/**
 * The analysis's spine: one Budget per document holds the deadline, the account of decoded bytes held in memory,
 * and which stage ran out first. Every stage whose work grows with the input asks it, and nothing else reads the
 * clock or decides a bound (the bounds themselves are AnalyzerOptions, carried here as `limits` so that every stage
 * the budget reaches can read them).
 */
import { DEFAULT_OPTIONS, type Limits } from './options';

/** The bounds a stage reads: its budget's (the document's options), or the defaults when it runs without one. */
export function limitsOf(budget: Budget | undefined): Limits {
  return budget ? budget.limits : DEFAULT_OPTIONS;
}

/** The stages that spend the budget; the report names the one that ran out. */
export type Stage = 'xref' | 'object-stream' | 'page-tree' | 'fonts' | 'cmap' | 'decode' | 'content' | 'metadata';

export type ExhaustedReason = 'budget-exceeded' | 'memory-limit';

export interface Exhausted {
  reason: ExhaustedReason;
  stage: Stage;
}

/**
 * Whether the clock is past `deadline` (a Date.now() value; Infinity: never). The one place the analyzer reads the clock
 * against its deadline: the Budget asks it, and so do the decoders (filters.ts, inflate.ts), which are handed the
 * Budget's deadline as a number so that they stay callable on their own.
 */
export function pastDeadline(deadline: number): boolean {
  return Date.now() > deadline;
}

export class Budget {
  /** bytes of decoded data charged and not yet released */
  held = 0;
  /** the most bytes ever held at once */
  peakHeld = 0;
  /** the first limit of this budget that was hit, and where */
  exhausted: Exhausted | undefined;

  /**
   * @param deadline `Date.now()` past which work stops (Infinity: none)
   * @param maxHeldBytes decoded bytes that may be held at once (streams, object-stream cache, CMaps, font programs)
   * @param limits the document's resolved options: the bounds of every stage this budget reaches (fonts, CMaps…).
   *   The document opener sets them to the options it was given (openDocument), as it sets the xref's budget.
   */
  constructor(
    readonly deadline: number,
    readonly maxHeldBytes: number = Infinity,
    public limits: Limits = DEFAULT_OPTIONS,
  ) {}

  static unbounded(): Budget {
    return new Budget(Infinity, Infinity);
  }

  /** True once the deadline has passed; the first stage that sees it is recorded. */
  outOfTime(stage: Stage): boolean {
    if (!pastDeadline(this.deadline)) return false;
    this.exhausted ??= { reason: 'budget-exceeded', stage };
    return true;
  }

  /** Throws BudgetExhausted when the deadline has passed: for loops deep inside a parser that can't return early. */
  checkTime(stage: Stage): void {
    if (this.outOfTime(stage)) throw new BudgetExhausted('budget-exceeded', stage);
  }

  /** Charges `bytes` to the account. False, charging nothing, when the bound would be passed (recorded as memory-limit). */
  tryCharge(bytes: number, stage: Stage): boolean {
    if (this.held + bytes > this.maxHeldBytes) {
      this.exhausted ??= { reason: 'memory-limit', stage };
      return false;
    }
    this.held += bytes;
    if (this.held > this.peakHeld) this.peakHeld = this.held;
    return true;
  }

  /** Whether `bytes` more could be charged now (asks; records nothing). */
  fits(bytes: number): boolean {
    return this.held + bytes <= this.maxHeldBytes;
  }

  /** Charges `bytes` or throws BudgetExhausted('memory-limit'). */
  charge(bytes: number, stage: Stage): void {
    if (!this.tryCharge(bytes, stage)) throw new BudgetExhausted('memory-limit', stage);
  }

  release(bytes: number): void {
    this.held = Math.max(0, this.held - bytes);
  }
}

/** Thrown from deep inside a stage when the budget runs out; caught where the stage's result is assembled. */
export class BudgetExhausted extends Error {
  constructor(
    readonly reason: ExhaustedReason,
    readonly stage: Stage,
  ) {
    super(`${reason} in ${stage}`);
  }
}

/**
 * A least-recently-used cache whose entries are charged to a Budget: adding one evicts the oldest until it fits.
 * An entry that can't fit even in an empty cache is not kept (the caller still has the value; it just isn't cached).
 */
export class ChargedLru<K, V> {
  private readonly map = new Map<K, { value: V; bytes: number }>();
  private bytes = 0;

  constructor(
    private readonly budget: Budget,
    private readonly stage: Stage,
    /** this cache's own share of the budget: it never holds more than this */
    private readonly maxBytes: number,
  ) {}

  get size(): number {
    return this.map.size;
  }

  get heldBytes(): number {
    return this.bytes;
  }

  get(key: K): V | undefined {
    const e = this.map.get(key);
    if (!e) return undefined;
    // re-insert: Map iteration order is insertion order, so the first key is the least recently used
    this.map.delete(key);
    this.map.set(key, e);
    return e.value;
  }

  has(key: K): boolean {
    return this.map.has(key);
  }

  /** Keeps `value` if it can be made to fit; returns whether it was kept. */
  set(key: K, value: V, bytes: number): boolean {
    this.delete(key);
    if (bytes > this.maxBytes) return false;
    while (this.map.size > 0 && (this.bytes + bytes > this.maxBytes || !this.budget.fits(bytes))) this.evictOldest();
    // A value that can't be cached is not a limit hit: the caller has it, only a later reuse costs a decode again.
    if (!this.budget.fits(bytes)) return false;
    this.budget.tryCharge(bytes, this.stage);
    this.map.set(key, { value, bytes });
    this.bytes += bytes;
    return true;
  }

  delete(key: K): void {
    const e = this.map.get(key);
    if (!e) return;
    this.map.delete(key);
    this.bytes -= e.bytes;
    this.budget.release(e.bytes);
  }

  clear(): void {
    for (const k of [...this.map.keys()]) this.delete(k);
  }

  private evictOldest(): void {
    const k = this.map.keys().next().value as K;
    this.delete(k);
  }
}
