import { expect } from 'chai';
import {
  AssertionFailure,
  assertComparison,
  assertContains,
  assertIsFalse,
  assertIsTrue,
  assertLength,
  assertMatch,
} from '../../conformance/index.js';

const passes = (fn: () => void): void => {
  expect(fn).not.to.throw();
};
const fails = (fn: () => void): void => {
  expect(fn).to.throw(AssertionFailure);
};

describe('conformance: assertions', () => {
  it('match: scalars, with numbers equal regardless of int/float', () => {
    passes(() => assertMatch('a', 1, 1.0));
    passes(() => assertMatch('a', 'x', 'x'));
    passes(() => assertMatch('a', null, null));
    fails(() => assertMatch('a', '1', 1));
    fails(() => assertMatch('a', 2, 1));
    fails(() => assertMatch('a', undefined, 'x'));
  });

  it('match: whole objects and arrays must be equal, key order aside', () => {
    passes(() => assertMatch('_source', { a: 1, b: [1, { c: 'd' }] }, { b: [1, { c: 'd' }], a: 1.0 }));
    fails(() => assertMatch('_source', { a: 1, extra: 2 }, { a: 1 }));
    fails(() => assertMatch('_source', { a: 1 }, { a: 1, b: 2 }));
    fails(() => assertMatch('list', [1, 2], [2, 1]));
    fails(() => assertMatch('list', [1], [1, 1]));
  });

  it('match: /regex/ values match the text, in Java COMMENTS mode', () => {
    passes(() => assertMatch('_id', 'abc123', '/^abc\\d+$/'));
    passes(() => assertMatch('$body', 'epoch 12\n', '/^ epoch \\s+ \\d+ \\s* \\n $/'));
    passes(() => assertMatch('x', 'a b', '/^a\\ b$/'));
    passes(() => assertMatch('x', 'ab', `/^a  # the a
      b$/`));
    fails(() => assertMatch('_id', 'xyz', '/^abc/'));
    fails(() => assertMatch('_id', undefined, '/.*/'));
  });

  it('match: a regex $ is Java\'s, also matching before a final line terminator (a _cat row)', () => {
    passes(() => assertMatch('$body', 'foo\n', '/^(foo)$/'));
    passes(() => assertMatch('$body', 'foo', '/^(foo)$/'));
    passes(() => assertMatch('$body', 'a$', '/^a\\$$/'));
    passes(() => assertMatch('$body', '$', '/^[$]$/'));
    fails(() => assertMatch('$body', 'foo\n\n', '/^(foo)$/'));
    fails(() => assertMatch('$body', 'foo\nbar', '/^(foo)$/'));
  });

  it('length counts string characters, array items and object keys', () => {
    passes(() => assertLength('a', 'abcd', 4));
    passes(() => assertLength('a', [1, 2], 2));
    passes(() => assertLength('a', { x: 1, y: 2, z: 3 }, 3));
    fails(() => assertLength('a', [1], 2));
    fails(() => assertLength('a', undefined, 0));
  });

  it('is_true / is_false follow the Java notion of truth', () => {
    for (const truthy of [true, 1, 'yes', {}, []]) passes(() => assertIsTrue('a', truthy));
    for (const falsy of [false, 0, '', 'false', undefined, null]) {
      fails(() => assertIsTrue('a', falsy));
      passes(() => assertIsFalse('a', falsy));
    }
  });

  it('gt/gte/lt/lte compare numbers', () => {
    passes(() => assertComparison('gt', 'a', 2, 1));
    passes(() => assertComparison('gte', 'a', 1, 1.0));
    passes(() => assertComparison('lt', 'a', 0.5, 1));
    passes(() => assertComparison('lte', 'a', 1, 1));
    fails(() => assertComparison('gt', 'a', 1, 1));
    fails(() => assertComparison('lt', 'a', undefined, 1));
  });

  it('contains finds an item, matching objects by the expected keys only', () => {
    passes(() => assertContains('plugins', [{ name: 'a', v: 1 }, { name: 'b' }], { name: 'b' }));
    passes(() => assertContains('list', [1, 2, 3], 2));
    fails(() => assertContains('plugins', [{ name: 'a' }], { name: 'c' }));
    fails(() => assertContains('plugins', 'not a list', 'n'));
  });
});
