import { stat } from 'node:fs/promises';
import type { BlobStore } from '../../files/blob-store.js';
import { Gate } from '../../files/gate.js';
import { DERIVED_TYPE, deriveImage } from '../../files/images.js';
import { LONG_EDGE, type Variant } from './sizes.js';

/** What serving a photograph's bytes needs from its record. */
export interface PhotographBytes {
  sha256: string;
  mediaType: string;
  byteSize: number;
  rotation: number;
}

/** The variants a photograph is served as: the two derived sizes, and the original byte-exact. */
export const SERVED_VARIANTS = ['display', 'thumbnail', 'original'] as const;
export type ServedVariant = (typeof SERVED_VARIANTS)[number];

/** Models take images up to about a megabyte; the display size stays under it. */
const MAX_BYTES: Partial<Record<Variant, number>> = { display: 1_000_000 };

/** Two images decode at once in this process (two cores); the others wait their turn. */
const decoding = new Gate(2);

/** What a derived size is made from: the original (by its digest) and the studio's rotation. */
export type DerivedSource = Pick<PhotographBytes, 'sha256' | 'rotation'>;

/** A derived file's name says everything it was made from, so it is never remade differently or overwritten. */
const derivedName = (p: DerivedSource, variant: Variant) => `${p.sha256}-r${p.rotation}-${variant}.jpg`;

/** A short stable tag for one rendering of a photograph: what its URLs carry so that caches may keep them for ever. */
export const renderingTag = (p: Pick<PhotographBytes, 'sha256' | 'rotation'>) =>
  `${p.sha256.slice(0, 16)}r${p.rotation}`;

/** Makes a derived size unless it exists (made earlier by this or another process sharing the folder). */
export async function ensureDerived(files: BlobStore, p: DerivedSource, variant: Variant, source?: string) {
  const name = derivedName(p, variant);
  if (!(await files.hasDerived(name))) {
    const bytes = await decoding.run(() =>
      deriveImage(source ?? files.originalPath(p.sha256), p.rotation, {
        longEdge: LONG_EDGE[variant],
        maxBytes: MAX_BYTES[variant],
      }),
    );
    await files.putDerived(name, bytes);
  }
  return name;
}

/** The file for a variant: its path, type, size and a strong ETag naming exactly those bytes. */
export async function openVariant(files: BlobStore, p: PhotographBytes, variant: ServedVariant) {
  if (variant === 'original') {
    return {
      path: files.originalPath(p.sha256),
      mediaType: p.mediaType,
      size: p.byteSize,
      etag: `"${p.sha256}"`,
      tag: renderingTag(p),
    };
  }
  return openDerived(files, p, variant);
}

/** A derived size's file (made on first request): all a frozen photograph, which keeps no original's type, can serve. */
export async function openDerived(files: BlobStore, p: DerivedSource, variant: Variant) {
  const path = files.derivedPath(await ensureDerived(files, p, variant));
  const tag = renderingTag(p);
  return { path, mediaType: DERIVED_TYPE, size: (await stat(path)).size, etag: `"${tag}-${variant}"`, tag };
}
