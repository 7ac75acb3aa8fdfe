// A writable stream that keeps what the CLI writes to it, as text: the CLI tests' stdout and stderr.
import { Writable } from 'node:stream';

export class Sink extends Writable {
  chunks: string[] = [];
  override _write(chunk: unknown, _e: BufferEncoding, cb: () => void) {
    this.chunks.push(String(chunk));
    cb();
  }
  text() {
    return this.chunks.join('');
  }
}
