// The pages a person opens in a browser: the annotated spec at GET / and the rule catalog as
// JSON at GET /rules.json, both built by npm run docs and shipped in docs/.

import { readFileSync } from 'node:fs';
import { RAW, type Request } from './http.js';
import { JsonError } from './params.js';

const DOCS = new URL('../../docs/', import.meta.url);
const cache = new Map<string, Buffer>();

function page(name: string, type: string) {
  let data = cache.get(name);
  if (!data) {
    try {
      data = readFileSync(new URL(name, DOCS));
    } catch {
      throw new JsonError(`Not Found: docs/${name} is not built (npm run docs writes it)`, 404);
    }
    cache.set(name, data);
  }
  return { [RAW]: { type, data } };
}

export const annotatedSpec = (_request: Request) => page('annotated.html', 'text/html; charset=utf-8');
export const ruleCatalog = (_request: Request) => page('rules.json', 'application/json');
