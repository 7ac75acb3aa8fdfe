/**
 * Builds PDF objects from tokens. Nesting is capped, so a hostile file of a million `[` can't overflow the stack.
 */
import { ARRAY_END, ARRAY_START, Cmd, DICT_END, DICT_START, EOF, Lexer, type Token, isRegular } from './lexer';
import { PdfDict, type PdfValue, Ref } from './objects';
import { type AnalyzerOptions, DEFAULT_OPTIONS } from './options';

/** The bounds the parser reads (AnalyzerOptions): nesting depth, and elements of one array or dictionary. */
export type ParserLimits = Pick<AnalyzerOptions, 'maxObjectNesting' | 'maxObjectElements'>;

const R = Cmd.of('R');

export type StringHook = (s: Uint8Array) => Uint8Array;

export class Parser {
  private readonly maxNesting: number;
  private readonly maxElements: number;
  constructor(
    readonly lexer: Lexer,
    readonly decryptString?: StringHook,
    limits: ParserLimits = DEFAULT_OPTIONS,
  ) {
    this.maxNesting = limits.maxObjectNesting;
    this.maxElements = limits.maxObjectElements;
  }

  /** Parses one value. Tokens that are not values (a stray keyword) come back as their Cmd. */
  parseValue(depth = 0): PdfValue | Cmd | typeof EOF {
    const tok = this.lexer.next();
    return this.fromToken(tok, depth);
  }

  fromToken(tok: Token, depth: number): PdfValue | Cmd | typeof EOF {
    if (typeof tok === 'number') return this.maybeRef(tok);
    if (tok instanceof Uint8Array) return this.decryptString ? this.decryptString(tok) : tok;
    if (tok === ARRAY_START) return this.parseArray(depth + 1);
    if (tok === DICT_START) return this.parseDict(depth + 1);
    return tok;
  }

  /** After an integer: `N G R` is a reference; otherwise the lexer is left just after the number. */
  private maybeRef(n: number): PdfValue {
    if (!Number.isInteger(n) || n < 0) return n;
    const lx = this.lexer;
    const save = lx.pos;
    lx.skipWhite();
    const c = lx.buf[lx.pos];
    if (c >= 48 && c <= 57) {
      const gen = lx.readNumber();
      if (gen !== undefined && Number.isInteger(gen)) {
        lx.skipWhite();
        if (lx.buf[lx.pos] === 82 /* R */ && !(lx.pos + 1 < lx.end && isRegular(lx.buf[lx.pos + 1]))) {
          lx.pos++;
          return new Ref(n, gen);
        }
      }
    }
    lx.pos = save;
    return n;
  }

  parseArray(depth: number): PdfValue[] {
    const out: PdfValue[] = [];
    if (depth > this.maxNesting) {
      this.skipNested(ARRAY_START, ARRAY_END);
      return out;
    }
    for (;;) {
      const tok = this.lexer.next();
      if (tok === ARRAY_END || tok === EOF) return out;
      if (tok === DICT_END) return out; // unbalanced: let the caller see the dict end as consumed
      const v = this.fromToken(tok, depth);
      if (v instanceof Cmd || v === EOF) {
        if (v === R) continue;
        // Keywords inside arrays are malformed; a keyword that ends an object ends the array too.
        if (v instanceof Cmd && (v.op === 'endobj' || v.op === 'stream' || v.op === 'obj')) {
          this.lexer.pos -= v.op.length;
          return out;
        }
        continue;
      }
      if (out.length < this.maxElements) out.push(v);
    }
  }

  parseDict(depth: number): PdfDict {
    const dict = new PdfDict();
    if (depth > this.maxNesting) {
      this.skipNested(DICT_START, DICT_END);
      return dict;
    }
    for (;;) {
      const tok = this.lexer.next();
      if (tok === DICT_END || tok === EOF) return dict;
      if (typeof tok !== 'string') {
        // A key that is not a name: malformed. Stop at keywords that end objects, skip anything else.
        if (tok instanceof Cmd && (tok.op === 'endobj' || tok.op === 'stream' || tok.op === 'obj')) {
          this.lexer.pos -= tok.op.length;
          return dict;
        }
        continue;
      }
      const v = this.parseValue(depth);
      if (v === EOF) return dict;
      if (v instanceof Cmd) {
        if (v === DICT_END) {
          // "/Key >>": a key without value
          return dict;
        }
        if (v.op === 'endobj' || v.op === 'stream') {
          this.lexer.pos -= v.op.length;
          return dict;
        }
        continue;
      }
      if (dict.size < this.maxElements) dict.set(tok, v);
    }
  }

  /** Skips a too-deep structure by counting its brackets, without building anything. */
  private skipNested(open: Cmd, close: Cmd): void {
    let level = 1;
    // each token moves the lexer forward, so this ends at the end of the buffer; the guard is only a backstop
    let guard = 0;
    while (level > 0 && guard++ < 50_000_000) {
      const t = this.lexer.next();
      if (t === EOF) return;
      if (t === open) level++;
      else if (t === close) level--;
    }
  }
}
