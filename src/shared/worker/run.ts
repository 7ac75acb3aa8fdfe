/** The analysis step every worker flavour runs: validate the request, analyse, answer. Never throws. */
import { analyzePdfSync } from '../../analyzer/analyze';
import type { WorkerRequest, WorkerResponse } from './messages';

export function runRequest(msg: unknown): WorkerResponse | undefined {
  if (typeof msg !== 'object' || msg === null) return undefined;
  const { id, bytes, options } = msg as Partial<WorkerRequest>;
  if (typeof id !== 'number') return undefined;
  if (!(bytes instanceof Uint8Array)) return { type: 'failed', id, message: 'no bytes to analyse' };
  try {
    return { type: 'result', id, report: analyzePdfSync(bytes, typeof options === 'object' && options ? options : undefined) };
  } catch (e) {
    // analyzePdfSync promises not to throw; a stack overflow or OOM can still escape it.
    return { type: 'failed', id, message: String(e).slice(0, 300) };
  }
}
