/** The progress line (standard error, terminals only) and the closing summary of a table run. */
import type { Writable } from 'node:stream';

export interface Tally {
  files: number;
  pages: number;
  needOcr: number;
  cantTell: number;
  failed: number;
  /** pages whose text layer should be OCR'd again (only counted with --layer-quality) */
  reocr?: number;
}

const nf = new Intl.NumberFormat('en-US');

function count(n: number, one: string, many = one + 's'): string {
  return `${nf.format(n)} ${n === 1 ? one : many}`;
}

/** e.g. "436 files · 1,538 pages · 146 need OCR · 35 can't tell · 4.5 s"; failures are named only when there are some. */
export function summaryLine(t: Tally, elapsedMs: number): string {
  const parts = [
    count(t.files, 'file'),
    count(t.pages, 'page'),
    `${nf.format(t.needOcr)} need${t.needOcr === 1 ? 's' : ''} OCR`,
    `${nf.format(t.cantTell)} can't tell`,
  ];
  if (t.reocr !== undefined) parts.push(`${nf.format(t.reocr)} to re-OCR`);
  if (t.failed > 0) parts.push(`${nf.format(t.failed)} failed`);
  parts.push(`${(elapsedMs / 1000).toFixed(1)} s`);
  return parts.join(' · ');
}

/**
 * A self-overwriting line on a terminal's standard error. Disabled (writes nothing at all) unless the stream is a TTY,
 * so a pipeline's log never fills with carriage returns. Redraws at most every 100 ms.
 */
export class Progress {
  private shown = false;
  private last = 0;

  constructor(
    private readonly stream: Writable,
    readonly enabled: boolean,
    private readonly now: () => number = Date.now,
  ) {}

  static for(stream: Writable & { isTTY?: boolean }, quiet: boolean, isTTY = stream.isTTY === true): Progress {
    return new Progress(stream, isTTY && !quiet);
  }

  update(t: Tally, force = false): void {
    if (!this.enabled) return;
    const now = this.now();
    if (!force && now - this.last < 100) return;
    this.last = now;
    this.stream.write(`\r\x1b[K${count(t.files, 'file')} · ${count(t.pages, 'page')} · ${nf.format(t.needOcr)} need OCR…`);
    this.shown = true;
  }

  /** Erases the line, so what comes next (a record on the same terminal, the summary) starts clean. */
  clear(): void {
    if (!this.enabled || !this.shown) return;
    this.stream.write('\r\x1b[K');
    this.shown = false;
  }
}
