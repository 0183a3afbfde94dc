/**
 * The derivatives every photograph has, and their pixel sizes, computed from the record alone (no image is opened):
 * the client document and the photograph record state them, and a page lays images out before they load.
 */
export const VARIANTS = ['display', 'thumbnail'] as const;
export type Variant = (typeof VARIANTS)[number];

/**
 * Long edge in pixels. Display: what a model takes without downscaling (Claude's vision guidance: ≤ 1,568 px) and a
 * phone or a printed page shows sharply; thumbnail: a schedule row or a contact sheet.
 */
export const LONG_EDGE: Record<Variant, number> = { display: 1568, thumbnail: 320 };

export interface PixelSize {
  width: number;
  height: number;
}

/** The upright size after the studio's quarter turns (90 and 270 swap the sides). */
export function turned(size: PixelSize, rotation: number): PixelSize {
  return rotation % 180 === 0 ? size : { width: size.height, height: size.width };
}

/** A variant's size: turned, then scaled down (never up) so the long edge fits, as the image library rounds it. */
export function variantSize(original: PixelSize, rotation: number, variant: Variant): PixelSize {
  const { width, height } = turned(original, rotation);
  const bound = LONG_EDGE[variant];
  const long = Math.max(width, height);
  if (long <= bound) return { width, height };
  const scale = bound / long;
  return width >= height
    ? { width: bound, height: Math.max(1, Math.round(height * scale)) }
    : { width: Math.max(1, Math.round(width * scale)), height: bound };
}
