/** Messages between the extension host and an analysis worker (node worker_threads or a Web Worker). */
import type { AnalyzerOptions } from '../../analyzer/options';
import type { DocumentReport } from '../../analyzer/types';

export interface WorkerRequest {
  id: number;
  bytes: Uint8Array;
  options: Partial<AnalyzerOptions>;
}

export type WorkerResponse =
  { type: 'ready' } | { type: 'result'; id: number; report: DocumentReport } | { type: 'failed'; id: number; message: string };
