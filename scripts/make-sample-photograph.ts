/**
 * Writes samples/three-seat-sofa.jpg, the photograph the README uploads to the demo's three-seat sofa: a made-up
 * product shot (a sofa's shape on a soft backdrop), 1,200 × 900, a JPEG as a camera would send, some 20 KB.
 *
 *   npx tsx scripts/make-sample-photograph.ts
 */
import { join } from 'node:path';
import sharp from 'sharp';

const sofa =
  '<rect x="250" y="360" width="700" height="300" rx="70" fill="#6f8f72"/>' +
  '<rect x="200" y="420" width="120" height="240" rx="50" fill="#5f7d62"/>' +
  '<rect x="880" y="420" width="120" height="240" rx="50" fill="#5f7d62"/>' +
  '<rect x="300" y="660" width="36" height="90" fill="#3b3b3b"/><rect x="864" y="660" width="36" height="90" fill="#3b3b3b"/>';
const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="900"><defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#f4efe6"/><stop offset="1" stop-color="#ddd3c4"/></linearGradient></defs><rect width="1200" height="900" fill="url(#g)"/>${sofa}</svg>`;

await sharp(Buffer.from(svg))
  .jpeg({ quality: 85 })
  .toFile(join(import.meta.dirname, '..', 'samples', 'three-seat-sofa.jpg'));
