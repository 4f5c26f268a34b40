/** Point-in-time ids: made by the embedded engine, read by the gateway's classifier. */
export { decodePitId, encodePitId, type PitIdContent } from './pit-id.js';
