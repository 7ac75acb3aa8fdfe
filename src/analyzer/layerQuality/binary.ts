/**
 * Fixed-width integers as the image formats' headers store them (big-endian: JPEG 2000 markers and boxes, JBIG2
 * segments): one home for the readers the decoders share. A read past the buffer's end gives 0 for the missing bytes.
 */

/** an unsigned 16-bit integer at `i` */
export const u16 = (d: Uint8Array, i: number): number => ((d[i] << 8) | d[i + 1]) & 0xffff;

/** an unsigned 32-bit integer at `i` */
export const u32 = (d: Uint8Array, i: number): number => ((d[i] << 24) | (d[i + 1] << 16) | (d[i + 2] << 8) | d[i + 3]) >>> 0;

/** a byte read as a signed 8-bit integer */
export const s8 = (b: number): number => (b << 24) >> 24;
