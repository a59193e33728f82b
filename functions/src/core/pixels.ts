// Every image decoded by this code is bounded in pixels: a small file can claim a huge canvas
// (a 16000×16000 PNG compresses to under 1 MB and decodes to 1 GB), so sharp is always given
// DECODE_LIMIT and refuses such an input instead of exhausting the instance's memory.

/** Most pixels any image may have to be decoded (8K and a 3×4K composite fit; 50 Mpx RGBA is 200 MB). */
export const MAX_DECODE_PIXELS = 50_000_000;

/** sharp's input options for every decode: `sharp(input, DECODE_LIMIT)` or `{ ...DECODE_LIMIT, raw }`. */
export const DECODE_LIMIT = { limitInputPixels: MAX_DECODE_PIXELS } as const;

/** Whether a width × height (from an image's header) may be decoded. */
export const decodable = (width: number, height: number): boolean => width * height <= MAX_DECODE_PIXELS;
