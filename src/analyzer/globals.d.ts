// The analyzer's only host globals, declared with just the members it uses. The analyzer compiles with the ES library
// alone (src/analyzer/tsconfig.json: no DOM, no @types/node), which proves it runs on any JavaScript host; these two
// are in every host it targets (browsers, web workers, Node). Used by text.ts (TextDecoder) and crypto.ts (TextEncoder).

interface TextDecoder {
  decode(input?: Uint8Array): string;
}
declare var TextDecoder: {
  prototype: TextDecoder;
  new (label?: string, options?: { fatal?: boolean; ignoreBOM?: boolean }): TextDecoder;
};

interface TextEncoder {
  encode(input?: string): Uint8Array;
}
declare var TextEncoder: {
  prototype: TextEncoder;
  new (): TextEncoder;
};
