import { fieldExists, inRange, rangeOperands, type PreparedDocument } from '../../engine/embedded/index.js';
import type { Atom } from './requirement.js';

export type DocumentTest = (doc: PreparedDocument) => boolean;

/**
 * An atom as a test on a prepared document: the document matcher's own test for the clause it
 * comes from (`fieldExists`, `rangeOperands` and `inRange` are the matcher's). Compiled once per
 * search, as a closure of the atom's kind, so that testing is not a dispatch on the kind.
 */
export function testOf(atom: Atom): DocumentTest {
  switch (atom.kind) {
    case 'id': {
      const { id } = atom;
      return (doc) => doc.id === id;
    }
    case 'term': {
      const { field, term } = atom;
      return (doc) => doc.fields.get(field)?.terms.includes(term) ?? false;
    }
    case 'prefix': {
      const { field, prefix } = atom;
      return (doc) => {
        const terms = doc.fields.get(field)?.terms;
        if (terms) for (const t of terms) if (t.startsWith(prefix)) return true;
        return false;
      };
    }
    case 'range': {
      const { field, bounds, booleanField } = atom;
      return (doc) => {
        const f = doc.fields.get(field);
        if (f) for (const v of rangeOperands(f, bounds.numeric, booleanField)) if (inRange(v, bounds)) return true;
        return false;
      };
    }
    case 'exists': {
      const { field } = atom;
      return (doc) => fieldExists(doc.fields, field);
    }
    case 'not': {
      const test = testOf(atom.atom);
      return (doc) => !test(doc);
    }
  }
}
