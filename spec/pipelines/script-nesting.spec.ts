import { expect } from 'chai';
import { checkSyntax, loadSandbox, MAX_SCRIPT_NESTING, nestingDepth } from '../../lib/pipelines/sandbox.js';

describe('pipelines: a script nested too deeply is refused before it reaches the parser', () => {
  before(() => loadSandbox());

  it('counts brackets outside strings, templates and comments', () => {
    expect(nestingDepth('function f() { return [1, (2)]; }')).to.equal(3);
    expect(nestingDepth('const s = "((((" + \'[[[[\' + `{{{{`; // ((((\n/* [[[[ */ f(1)')).to.equal(1);
    expect(nestingDepth('const s = "a\\"((("; g()')).to.equal(1);
  });

  it(`a million nested parentheses: refused naming the limit (${MAX_SCRIPT_NESTING}); a script just under it still compiles`, () => {
    const deep = `function handleRequest() { return ${'('.repeat(1_000_000)}1${')'.repeat(1_000_000)}; }`;
    expect(() => checkSyntax(deep, 'deep.js')).to.throw(/nested too deeply to compile \(more than 1000 levels\)/);
    const shallow = `function handleRequest() { return ${'('.repeat(100)}1${')'.repeat(100)}; }`;
    expect(() => checkSyntax(shallow, 'shallow.js')).not.to.throw();
  });
});
