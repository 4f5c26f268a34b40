import { FieldCatalog, type IndexMeta } from '../../lib/declarative/index.js';
import { AUTOSUGGEST_SETTINGS } from './fixtures.js';

/**
 * A product index with what ReactiveSearch's query properties need: synonyms and autosuggest
 * sub-fields, categories, a nested list of variants, dates, a url, rank features and a vector.
 */
export const PRODUCTS_MAPPINGS = {
  properties: {
    name: {
      type: 'text',
      fields: {
        keyword: { type: 'keyword' },
        synonyms: { type: 'text' },
        autosuggest: { type: 'text', analyzer: 'autosuggest_analyzer', search_analyzer: 'standard' },
      },
    },
    description: { type: 'text' },
    brand: { type: 'keyword' },
    category: { type: 'keyword' },
    price: { type: 'integer' },
    released: { type: 'date' },
    url: { type: 'keyword' },
    stock: { type: 'integer' },
    variants: { type: 'nested', properties: { color: { type: 'keyword' }, size: { type: 'integer' } } },
    location: { type: 'geo_point' },
  },
};

/** The fields only Elasticsearch has (no documents use them in end-to-end specs). */
const ES_ONLY = {
  pagerank: { type: 'rank_feature' },
  topics: { type: 'rank_features' },
  name_vector: { type: 'dense_vector', dims: 2 },
};

export const productsCatalog = FieldCatalog.fromIndexMeta({
  products: { mappings: { properties: { ...PRODUCTS_MAPPINGS.properties, ...ES_ONLY } }, settings: { index: AUTOSUGGEST_SETTINGS } } as IndexMeta,
});

export const PRODUCTS_SETTINGS = AUTOSUGGEST_SETTINGS;

export const PRODUCTS = [
  { name: 'Apple iPhone 15', description: 'The latest iPhone with a fast chip', brand: 'Apple', category: 'Phones', price: 999, released: '2023-09-22', url: 'https://shop.example/iphone-15', stock: 5, variants: [{ color: 'black', size: 128 }, { color: 'blue', size: 256 }], location: { lat: 52.52, lon: 13.4 } },
  { name: 'Apple iPhone 14', description: 'Last year iPhone, still fast', brand: 'Apple', category: 'Phones', price: 799, released: '2022-09-16', url: 'https://shop.example/iphone-14', stock: 0, variants: [{ color: 'red', size: 128 }], location: { lat: 48.14, lon: 11.58 } },
  { name: 'Apple iPad Air', description: 'A light tablet for drawing', brand: 'Apple', category: 'Tablets', price: 599, released: '2024-03-08', url: 'https://shop.example/ipad-air', stock: 12, variants: [{ color: 'blue', size: 64 }], location: { lat: 53.55, lon: 9.99 } },
  { name: 'Samsung Galaxy S24', description: 'An Android phone with a bright screen', brand: 'Samsung', category: 'Phones', price: 899, released: '2024-01-31', url: 'https://shop.example/galaxy-s24', stock: 7, variants: [{ color: 'black', size: 256 }], location: { lat: 52.5, lon: 13.42 } },
  { name: 'Samsung Galaxy Tab S9', description: 'An Android tablet', brand: 'Samsung', category: 'Tablets', price: 799, released: '2023-08-11', url: 'https://shop.example/galaxy-tab', stock: 3, variants: [{ color: 'grey', size: 128 }], location: { lat: 50.11, lon: 8.68 } },
  { name: 'Google Pixel 8', description: 'A phone with a great camera', brand: 'Google', category: 'Phones', price: 699, released: '2023-10-12', url: 'https://shop.example/pixel-8', stock: 9, variants: [{ color: 'black', size: 128 }, { color: 'green', size: 256 }], location: { lat: 48.78, lon: 9.18 } },
  { name: 'Generic USB Cable', description: 'A cable', category: 'Accessories', price: 9, released: '2020-01-01', url: 'https://shop.example/cable', stock: 100, variants: [], location: { lat: 51.34, lon: 12.37 } },
];
