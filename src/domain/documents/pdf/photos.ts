import type { BlobStore } from '../../../files/blob-store.js';
import type { FrozenPhotograph } from '../../client-document/photographs.js';
import { ensureDerived } from '../../photographs/variants.js';

/**
 * The display-size JPEG of each photograph a document shows (upright, long edge 1,568 px: sharp on a printed page),
 * made from the original the source froze (its SHA-256 and rotation) unless it exists already. A photograph whose
 * original is missing from the blob store answers undefined and the page shows a placeholder: a document is still
 * made, never refused for one lost file.
 */
export class PhotoFiles {
  private readonly paths = new Map<string, Promise<string | undefined>>();

  constructor(private readonly files: BlobStore) {}

  path(p: FrozenPhotograph): Promise<string | undefined> {
    const key = `${p.sha256}-${p.rotation}`;
    let found = this.paths.get(key);
    if (!found) {
      found = ensureDerived(this.files, { sha256: p.sha256, rotation: p.rotation }, 'display')
        .then((name) => this.files.derivedPath(name))
        .catch(() => undefined);
      this.paths.set(key, found);
    }
    return found;
  }
}
