import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { FastifyInstance } from 'fastify';

/**
 * The typefaces of the client's pages, shipped with the server and served by it (`GET /fonts/<file>`): Inter for text
 * and Fraunces for headings, both under the SIL Open Font License, from their fontsource packages. A client page never
 * asks another host for a font (its CSP says `font-src 'self'`). Latin and Latin Extended subsets, each declared with
 * its unicode-range so a browser fetches the second only for a name that needs it.
 */

const require = createRequire(import.meta.url);

interface Face {
  family: string;
  package: string;
  file: string;
  weights: string;
  range: string;
}

const LATIN =
  'U+0000-00FF,U+0131,U+0152-0153,U+02BB-02BC,U+02C6,U+02DA,U+02DC,U+0304,U+0308,U+0329,U+2000-206F,U+20AC,U+2122,U+2191,U+2193,U+2212,U+2215,U+FEFF,U+FFFD';
const LATIN_EXT =
  'U+0100-02BA,U+02BD-02C5,U+02C7-02CC,U+02CE-02D7,U+02DD-02FF,U+0304,U+0308,U+0329,U+1D00-1DBF,U+1E00-1E9F,U+1EF2-1EFF,U+2020,U+20A0-20AB,U+20AD-20C0,U+2113,U+2C60-2C7F,U+A720-A7FF';

const FACES: readonly Face[] = [
  {
    family: 'Inter',
    package: '@fontsource-variable/inter',
    file: 'inter-latin-wght-normal.woff2',
    weights: '100 900',
    range: LATIN,
  },
  {
    family: 'Inter',
    package: '@fontsource-variable/inter',
    file: 'inter-latin-ext-wght-normal.woff2',
    weights: '100 900',
    range: LATIN_EXT,
  },
  {
    family: 'Fraunces',
    package: '@fontsource-variable/fraunces',
    file: 'fraunces-latin-wght-normal.woff2',
    weights: '100 900',
    range: LATIN,
  },
  {
    family: 'Fraunces',
    package: '@fontsource-variable/fraunces',
    file: 'fraunces-latin-ext-wght-normal.woff2',
    weights: '100 900',
    range: LATIN_EXT,
  },
];

/** The @font-face rules for the client pages' stylesheet (same-origin URLs). */
export const FONT_FACES = FACES.map(
  (f) =>
    `@font-face { font-family: "${f.family}"; font-style: normal; font-display: swap; font-weight: ${f.weights}; src: url("/fonts/${f.file}") format("woff2"); unicode-range: ${f.range}; }`,
).join('\n');

/** The CSS font stacks: the shipped face first, then what any system has. */
export const TEXT_FONT = '"Inter", system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
export const HEADING_FONT = '"Fraunces", Georgia, "Times New Roman", serif';

const loaded = new Map<string, { bytes: Buffer; etag: string }>();

function fontFile(name: string) {
  const known = loaded.get(name);
  if (known) return known;
  const face = FACES.find((f) => f.file === name);
  if (!face) return undefined;
  const bytes = readFileSync(require.resolve(`${face.package}/files/${face.file}`));
  const file = { bytes, etag: `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 22)}"` };
  loaded.set(name, file);
  return file;
}

/** `GET /fonts/<file>`: the shipped faces, anonymous, cached by browsers for a day and revalidated by ETag. */
export function registerFonts(app: FastifyInstance) {
  app.get<{ Params: { file: string } }>('/fonts/:file', async (req, reply) => {
    const file = fontFile(req.params.file);
    if (!file) return reply.callNotFound();
    reply.headers({
      etag: file.etag,
      'cache-control': 'public, max-age=86400',
      'x-content-type-options': 'nosniff',
      'cross-origin-resource-policy': 'same-origin',
    });
    if (req.headers['if-none-match'] === file.etag) return reply.code(304).send();
    return reply.code(200).type('font/woff2').send(file.bytes);
  });
}
