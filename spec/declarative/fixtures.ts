import type { Principal } from '../../lib/auth/index.js';
import { FieldCatalog, type IndexMeta, type MappingsOf } from '../../lib/declarative/index.js';

/** The autosuggest analysis of a search-as-you-type index: edge n-grams at index time only. */
export const AUTOSUGGEST_SETTINGS = {
  analysis: {
    analyzer: {
      autosuggest_analyzer: { type: 'custom', tokenizer: 'standard', filter: ['lowercase', 'autosuggest_filter'] },
    },
    filter: { autosuggest_filter: { type: 'edge_ngram', min_gram: 1, max_gram: 20 } },
  },
};

/** A small restaurant index: text with raw and autosuggest sub-fields, keyword, numbers, a geo_point. */
export const PLACES_MAPPINGS = {
  properties: {
    name: {
      type: 'text',
      fields: {
        raw: { type: 'keyword' },
        autosuggest: { type: 'text', analyzer: 'autosuggest_analyzer', search_analyzer: 'standard' },
      },
    },
    description: { type: 'text' },
    cuisine: { type: 'text', fields: { raw: { type: 'keyword' } } },
    city: { type: 'keyword' },
    price: { type: 'integer' },
    rating: { type: 'float' },
    location: { type: 'geo_point' },
  },
};

export const PLACES_META: Record<string, IndexMeta> = {
  places: { mappings: PLACES_MAPPINGS, settings: { index: AUTOSUGGEST_SETTINGS } } as IndexMeta,
};

/** An index without autosuggest sub-fields: suggestions fall back to prefix matching. */
export const PLAIN_META: Record<string, IndexMeta> = {
  plain: { mappings: { properties: { title: { type: 'text', fields: { raw: { type: 'keyword' } } } } } } as IndexMeta,
};

export const catalogs = new Map([
  ['places', FieldCatalog.fromIndexMeta(PLACES_META)],
  ['plain', FieldCatalog.fromIndexMeta(PLAIN_META)],
]);

export const mappingsOf: MappingsOf = async (index) => {
  const c = catalogs.get(index);
  if (!c) throw new Error(`no such index ${index}`);
  return c;
};

export function principal(overrides: Partial<Principal['credential']> = {}, role: 'admin' | 'user' = 'user'): Principal {
  return {
    username: 'tester',
    role,
    credential: {
      username: 'tester', indices: ['places', 'plain'], categories: ['declarative'], ops: ['read'], sources: [], referers: [],
      allow_raw_dsl: false, role, created_at: '', updated_at: '', ...overrides,
    },
  };
}

export const PLACES = [
  { name: 'Trattoria Roma', description: 'Wood-fired pizza and fresh pasta', cuisine: 'Italian', city: 'Berlin', price: 25, rating: 4.5, location: { lat: 52.52, lon: 13.405 } },
  { name: 'Pizzeria Napoli', description: 'Neapolitan pizza, thin crust', cuisine: 'Italian', city: 'Berlin', price: 15, rating: 4.1, location: { lat: 52.5, lon: 13.42 } },
  { name: 'Sushi Ken', description: 'Omakase sushi counter', cuisine: 'Japanese', city: 'Berlin', price: 80, rating: 4.8, location: { lat: 52.53, lon: 13.38 } },
  { name: 'Ramen Ichiban', description: 'Rich tonkotsu ramen', cuisine: 'Japanese', city: 'Hamburg', price: 18, rating: 4.3, location: { lat: 53.55, lon: 9.99 } },
  { name: 'Curry House', description: 'Spicy curry and naan bread', cuisine: 'Indian', city: 'Munich', price: 20, rating: 3.9, location: { lat: 48.137, lon: 11.575 } },
  { name: 'Pasta Bar', description: 'Handmade pasta, quick lunch', cuisine: 'Italian', city: 'Munich', price: 12, rating: 4.0, location: { lat: 48.14, lon: 11.58 } },
  { name: 'Taco Loco', description: 'Street tacos and burritos', cuisine: 'Mexican', city: 'Hamburg', price: 10, rating: 3.7, location: { lat: 53.56, lon: 10.0 } },
  { name: 'Pizza Express', description: 'Fast pizza delivery', cuisine: 'Italian', city: 'Hamburg', price: 9, rating: 3.2, location: { lat: 53.54, lon: 9.98 } },
];
