import { expect } from 'chai';
import { EsError } from '../../../../lib/errors/index.js';
import {
  FILTER_CONTEXT, LOOP_LIMIT_MESSAGE, MAX_LOOP_COUNTER, TEST_CONTEXT, UPDATE_CONTEXT, compileScript, fromJson, javaToString, markWrittenDoubles,
} from '../../../../lib/engine/embedded/painless/index.js';

/** Runs a painless_test script; params are given as JSON text, read as ES reads them (`2.0` is a double). */
function run(source: string, paramsJson = '{}'): unknown {
  const params = JSON.parse(paramsJson);
  markWrittenDoubles(params, paramsJson);
  return compileScript(source, TEST_CONTEXT).run({ params: fromJson(params) });
}

/** The script's result as `_execute` prints it (Java's toString). */
const show = (source: string, paramsJson?: string) => javaToString(run(source, paramsJson));

/** The ES error a script fails with. */
function failure(source: string, paramsJson?: string): Record<string, unknown> & { reason: string; caused_by: { type: string; reason: string } } {
  try {
    run(source, paramsJson);
  } catch (e) {
    expect(e).to.be.instanceOf(EsError);
    const err = e as EsError;
    expect(err.status).to.equal(400);
    expect(err.type).to.equal('script_exception');
    return { reason: err.reason, ...err.extra } as never;
  }
  throw new Error(`expected [${source}] to fail`);
}

describe('painless: the compiler', () => {
  describe('types and arithmetic', () => {
    it('integer division for int and long, real division once a double is involved', () => {
      expect(show('10 / 4')).to.equal('2');
      expect(show('-7 / 2')).to.equal('-3');
      expect(show('10.0 / 4')).to.equal('2.5');
      expect(show('long l = 10; l / 4')).to.equal('2');
      expect(show('double d = 10; d / 4')).to.equal('2.5');
      expect(show('10 % 3')).to.equal('1');
      expect(show('(float) 1 / 4')).to.equal('0.25');
    });

    it('def values keep their Java type: integers divide as ints, doubles (even 2.0) as doubles', () => {
      expect(show('params.a / params.b', '{"a": 10, "b": 4}')).to.equal('2');
      expect(show('params.a / params.b', '{"a": 10.0, "b": 4}')).to.equal('2.5');
      expect(show('params.count / params.total', '{"count": 100.0, "total": 1000.0}')).to.equal('0.1');
      expect(show('def x = 10; x /= 4; x')).to.equal('2');
      expect(show('def x = 2.0; x * 3')).to.equal('6.0');
    });

    it('int arithmetic overflows as Java does; long does not', () => {
      expect(show('int x = 2147483647; x + 1')).to.equal('-2147483648');
      expect(show('int x = 65536; x * x')).to.equal('0');
      expect(show('long x = 2147483647; x + 1')).to.equal('2147483648');
    });

    it('prints doubles as Java does', () => {
      expect(show('2.0')).to.equal('2.0');
      expect(show('0.1 + 0.2')).to.equal('0.30000000000000004');
      expect(show('1e10')).to.equal('1.0E10');
      expect(show('Math.max(3, 7)')).to.equal('7.0');
    });

    it('casts: explicit narrowing truncates, implicit narrowing is a compile error', () => {
      expect(show('(int) 3.9')).to.equal('3');
      expect(show('(int) -3.9')).to.equal('-3');
      expect(show('(long) 1e18')).to.equal('1000000000000000000');
      expect(show('def d = 7.9; (int) d')).to.equal('7');
      expect(show('byte b = (byte) 200; b')).to.equal('-56');
      expect(failure('int x = 3.5').caused_by).to.deep.equal({ type: 'illegal_argument_exception', reason: 'Cannot cast from [double] to [int].' });
      expect(failure('int x = "a"').caused_by.reason).to.equal('Cannot cast from [java.lang.String] to [int].');
      expect(failure('def d = 2.5; int x = d').caused_by.type).to.equal('class_cast_exception');
    });

    it('string concatenation with numbers, booleans, null and collections', () => {
      expect(show('"a" + 1 + 2')).to.equal('a12');
      expect(show('1 + 2 + "a"')).to.equal('3a');
      expect(show('"x" + 2.0 + true + null')).to.equal('x2.0truenull');
      expect(show('"list: " + [1, 2] + " map: " + ["k": "v"]')).to.equal('list: [1, 2] map: {k=v}');
      expect(show('String s = "a"; s += 1; s')).to.equal('a1');
    });

    it('comparison: == is equals(), === is identity; numbers compare across types', () => {
      expect(run('1 == 1.0')).to.equal(true);
      expect(run('def a = "x"; def b = "x"; a == b')).to.equal(true);
      expect(run('def a = [1, 2]; def b = [1, 2]; a == b')).to.equal(true);
      expect(run('def a = [1, 2]; def b = [1, 2]; a === b')).to.equal(false);
      expect(run('def a = [1]; def b = a; a === b')).to.equal(true);
      expect(run('"a" != "b" && 1 < 2 && 2 >= 2 && !(3 <= 2)')).to.equal(true);
      expect(run('def x = null; x == null')).to.equal(true);
    });

    it('boolean operators short-circuit; ternary, Elvis and null-safe access', () => {
      expect(run('def x = null; x != null && x.length() > 0')).to.equal(false);
      expect(show('def x = 3; x > 2 ? "big" : "small"')).to.equal('big');
      expect(show('def x = null; x ?: "default"')).to.equal('default');
      expect(show('def x = "set"; x ?: "default"')).to.equal('set');
      expect(run('def x = null; x?.length()')).to.equal(null);
      expect(run('def m = ["a": ["b": 1]]; m.z?.b')).to.equal(null);
      expect(show('def m = ["a": ["b": 1]]; m.a?.b')).to.equal('1');
    });

    it('increments and compound assignment', () => {
      expect(show('int x = 5; x++; ++x; x--; x += 10; x -= 2; x *= 2; x')).to.equal('28');
      expect(show('int x = 5; int y = x++; y + "," + x')).to.equal('5,6');
      expect(show('def m = ["n": 1]; m.n++; m.n += 5; m.n')).to.equal('7');
      expect(show('def l = [1, 2]; l[0] += 10; l[1]++; l')).to.equal('[11, 3]');
      expect(show('int x = 10; x /= 3; x')).to.equal('3');
    });

    it('bit operations and shifts on ints and longs', () => {
      expect(show('5 & 3 | 8 ^ 1')).to.equal('9');
      expect(show('-1 >>> 28')).to.equal('15');
      expect(show('1L << 40')).to.equal('1099511627776');
      expect(show('~5')).to.equal('-6');
    });

    it('instanceof', () => {
      expect(run('def x = 5; x instanceof Integer && !(x instanceof String)')).to.equal(true);
      expect(run('def x = [1]; x instanceof List && x instanceof ArrayList')).to.equal(true);
      expect(run('def x = ["a": 1]; x instanceof Map')).to.equal(true);
      expect(run('def x = 2.5; x instanceof Double')).to.equal(true);
    });
  });

  describe('statements', () => {
    it('typed declarations and default values', () => {
      expect(show('int i; long l; double d; boolean b; String s; def x; i + "," + l + "," + d + "," + b + "," + s + "," + x')).to.equal('0,0,0.0,false,null,null');
      expect(show('int a = 1, b = 2; a + b')).to.equal('3');
      expect(show('float f = 1.5f; f * 2')).to.equal('3.0');
    });

    it('if / else if / else, and the last expression is the result', () => {
      const src = 'int x = params.x; if (x > 10) { "big" } else if (x > 5) { "medium" } else { "small" }';
      expect(show(src, '{"x": 11}')).to.equal('big');
      expect(show(src, '{"x": 6}')).to.equal('medium');
      expect(show(src, '{"x": 1}')).to.equal('small');
      expect(show('if (true) return 1; return 2;')).to.equal('1');
    });

    it('for, for-each (both forms), while, do-while, break and continue', () => {
      expect(show('int s = 0; for (int i = 0; i < 5; i++) { s += i } s')).to.equal('10');
      expect(show('int s = 0; for (def x : [1, 2, 3]) { s += x } s')).to.equal('6');
      expect(show('int s = 0; for (int x : [1, 2, 3]) { s += x } s')).to.equal('6');
      expect(show('int s = 0; for (x in [1, 2, 3]) { s += x } s')).to.equal('6');
      expect(show('int i = 0; while (i < 10) { i += 3 } i')).to.equal('12');
      expect(show('int i = 0; do { i++ } while (i < 3); i')).to.equal('3');
      expect(show('int s = 0; for (int i = 0; i < 10; i++) { if (i % 2 == 0) continue; if (i > 7) break; s += i } s')).to.equal('16');
      expect(show('def m = ["a": 1, "b": 2]; int s = 0; for (def e : m.entrySet()) { s += e.getValue() } s')).to.equal('3');
      expect(show('int n = 0; for (def k : ["b": 1, "a": 2].keySet()) { n += k.length() } n')).to.equal('2');
    });

    it('functions, including recursion', () => {
      expect(show('int fib(int n) { return n <= 1 ? n : fib(n - 1) + fib(n - 2); } return fib(15);')).to.equal('610');
      expect(show('String greet(String who) { return "hi " + who; } greet(params.name)', '{"name": "bob"}')).to.equal('hi bob');
    });

    it('lambdas and method references with collections', () => {
      expect(show('def l = [1, 2, 3, 1]; l.removeIf(x -> x == 1); l')).to.equal('[2, 3]');
      expect(show('def l = [3, 1, 2]; l.sort((a, b) -> b - a); l')).to.equal('[3, 2, 1]');
      expect(show('def l = ["a", "bb"]; l.stream().map(s -> s.length()).collect(Collectors.toList())')).to.equal('[1, 2]');
      expect(show('[1, 2, 3, 4].stream().filter(x -> x % 2 == 0).mapToInt(x -> x).sum()')).to.equal('6');
      expect(show('["1", "2"].stream().map(Integer::parseInt).collect(Collectors.toList())')).to.equal('[1, 2]');
      expect(show('def seen = []; [1, 2].forEach(x -> seen.add(x * 10)); seen')).to.equal('[10, 20]');
    });

    it('try / catch and throw', () => {
      expect(show('try { Integer.parseInt("x") } catch (NumberFormatException e) { return "bad: " + e.getMessage() }')).to.equal('bad: For input string: "x"');
      expect(show('try { throw new IllegalArgumentException("boom") } catch (Exception e) { return e.getMessage() }')).to.equal('boom');
      expect(failure('throw new IllegalStateException("nope")').caused_by).to.deep.equal({ type: 'illegal_state_exception', reason: 'nope' });
    });
  });

  describe('the API', () => {
    it('strings', () => {
      expect(show('"Hello World".toLowerCase().substring(0, 5)')).to.equal('hello');
      expect(show('"  x ".trim() + "|" + "abc".length() + "|" + "abc".indexOf("c") + "|" + "abc".charAt(1)')).to.equal('x|3|2|b');
      expect(run('"abc".contains("b") && "abc".startsWith("a") && "abc".endsWith("c") && "".isEmpty()')).to.equal(true);
      expect(show('"a-b-c".replace("-", "+")')).to.equal('a+b+c');
      expect(show('"a,b,,c".splitOnToken(",").length')).to.equal('4');
      expect(show('String.valueOf(5) + Integer.parseInt("42") + Double.parseDouble("1.5") + Long.parseLong("7")')).to.equal('5421.57');
      expect(show('String.join("-", ["a", "b"])')).to.equal('a-b');
      expect(show('"abc".toUpperCase() + "aBc".equalsIgnoreCase("ABC")')).to.equal('ABCtrue');
    });

    it('lists: new ArrayList(), literals, add/remove/get/set/contains/indexOf/addAll/sort, length shortcut', () => {
      const src = `
        List l = new ArrayList();
        l.add("b"); l.add("a"); l.addAll(["c", "d"]);
        l.remove(l.indexOf("d"));
        l.set(0, "B");
        l.sort(null);
        l.get(0) + l[1] + l.size() + l.length + l.contains("c") + l.isEmpty() + l.indexOf("zz")`;
      expect(show(src)).to.equal('Ba33truefalse-1');
      expect(show('def l = [10, 20, 30]; l[-1] + l.0')).to.equal('40');
      expect(show('[]')).to.equal('[]');
    });

    it('maps: new HashMap(), literals, put/get/containsKey/remove/keySet/values/getOrDefault/size/isEmpty', () => {
      const src = `
        Map m = new HashMap();
        m.put("a", 1); m["b"] = 2; m.c = 3;
        m.remove("c");
        m.get("a") + m.b + m.getOrDefault("z", 100) + "|" + m.containsKey("a") + m.size() + m.isEmpty() + m.keySet() + m.values()`;
      expect(show(src)).to.equal('103|true2false[a, b][1, 2]');
      expect(show('[:]')).to.equal('{}');
      expect(show('["a": 1, "b": [true, null]]')).to.equal('{a=1, b=[true, null]}');
      expect(show('def m = [:]; m.computeIfAbsent("k", k -> []).add(1); m')).to.equal('{k=[1]}');
    });

    it('Math', () => {
      expect(show('Math.abs(-2) + Math.pow(2, 10) + Math.sqrt(16) + Math.floor(1.7) + Math.ceil(1.2)')).to.equal('1033.0');
      expect(show('Math.round(2.5) + Math.round(-2.5)')).to.equal('1');
      expect(show('Math.log10(1000) + Math.log(Math.E) + Math.exp(0) + Math.min(1, 2)')).to.equal('6.0');
      expect(show('Math.PI > 3.14')).to.equal('true');
    });

    it('dates: ZonedDateTime and Instant', () => {
      expect(show('ZonedDateTime z = ZonedDateTime.parse("2020-04-30T14:31:43Z"); z.getYear() + "-" + z.getMonthValue() + "-" + z.getDayOfMonth() + " " + z.getHour()'))
        .to.equal('2020-4-30 14');
      expect(show('ZonedDateTime.parse("2020-04-30T14:31:43Z").getDayOfWeek().getDisplayName(TextStyle.FULL, Locale.ROOT)')).to.equal('Thursday');
      expect(show('ZonedDateTime.parse("2020-04-30T14:31:43Z").toInstant().toEpochMilli()')).to.equal('1588257103000');
      expect(show('Instant.ofEpochMilli(0L).atZone(ZoneId.of("Z")).plusDays(1)')).to.equal('1970-01-02T00:00Z');
      expect(show(`DateTimeFormatter dtf = DateTimeFormatter.ofPattern("'custom' 'y' yyyy 'm' MM 'd' dd HH:mm:ss VV");
        ZonedDateTime zdt = ZonedDateTime.parse("custom y 1983 m 10 d 13 22:15:30 Z", dtf);
        zdt.format(DateTimeFormatter.ISO_INSTANT) + " " + zdt.format(DateTimeFormatter.ofPattern("yyyy/MM/dd"))`)).to.equal('1983-10-13T22:15:30Z 1983/10/13');
      expect(show('ChronoUnit.DAYS.between(ZonedDateTime.parse("2020-01-01T00:00:00Z"), ZonedDateTime.parse("2020-03-01T00:00:00Z"))')).to.equal('60');
    });

    it('regexes (ES 8 allows them, limited to linear time)', () => {
      expect(run('"abc" =~ /b/')).to.equal(true);
      expect(run('"abc" ==~ /b/')).to.equal(false);
      expect(run('"abc" ==~ /a.c/')).to.equal(true);
      expect(show('def m = /(\\d+)-(\\d+)/.matcher("10-20"); m.find() ? m.group(2) : "none"')).to.equal('20');
      expect(show('"a1b22".replaceAll(/\\d+/, m -> "#")')).to.equal('a#b#');
      expect(show('/,/.split("a,b,c").length')).to.equal('3');
    });
  });

  describe('errors', () => {
    it('a syntax error is a compile error with ES\'s script stack and position', () => {
      const err = failure('syntax errors are fun!');
      expect(err).to.deep.include({
        reason: 'compile error',
        script_stack: ['syntax errors are fun!', '       ^---- HERE'],
        script: 'syntax errors are fun!',
        lang: 'painless',
        position: { offset: 7, start: 0, end: 22 },
      });
      expect(err.caused_by.type).to.equal('illegal_argument_exception');
    });

    it('an unknown variable, method or field is a compile error naming it', () => {
      expect(failure('x + 1').caused_by.reason).to.equal('cannot resolve symbol [x]');
      expect(failure('"a".foo()').caused_by.reason).to.equal('member method [java.lang.String, foo/0] not found');
      expect(failure('Math.nothing(1)').caused_by.reason).to.equal('static method [java.lang.Math, nothing/1] not found');
      expect(failure('nothing(1)').caused_by.reason).to.equal('Unknown call [nothing] with [1] arguments.');
      expect(failure('1 + 1; 2').caused_by.reason).to.equal('Not a statement.');
      expect(failure('int x = 1; int x = 2;').caused_by.reason).to.equal('variable [x] is already defined');
      expect(failure('break;').caused_by.reason).to.equal('Break statement outside of a loop.');
    });

    it('a runtime error names the statement it happened in and the Java exception', () => {
      const err = failure('int a = 1;\nint b = a / 0;');
      expect(err.reason).to.equal('runtime error');
      expect(err.script_stack).to.deep.equal(['int b = a / 0;', '          ^---- HERE']);
      expect(err.position).to.deep.equal({ offset: 21, start: 11, end: 25 });
      expect(err.caused_by).to.deep.equal({ type: 'arithmetic_exception', reason: '/ by zero' });
      expect(failure('def x = null; x.length()').caused_by.type).to.equal('null_pointer_exception');
      expect(failure('def l = [1]; l[5]').caused_by).to.deep.equal({ type: 'index_out_of_bounds_exception', reason: 'Index 5 out of bounds for length 1' });
      expect(failure('def x = "a"; x.foo()').caused_by).to.deep.equal({ type: 'illegal_argument_exception', reason: 'dynamic method [java.lang.String, foo/0] not found' });
      expect(failure('Integer.parseInt("x")').caused_by).to.deep.equal({ type: 'number_format_exception', reason: 'For input string: "x"' });
    });

    it('Debug.explain reports the value\'s class', () => {
      const err = failure('Debug.explain(params.x)', '{"x": [1]}');
      expect(err).to.deep.include({ painless_class: 'java.util.ArrayList', to_string: '[1]' });
      expect(err.caused_by).to.deep.equal({ type: 'painless_explain_error', reason: null });
    });

    it('sources longer than Painless allows are refused', () => {
      const err = failure('1 + '.repeat(5000) + '1');
      expect(err.caused_by.reason).to.match(/^Scripts may be no longer than 16384 characters/);
    });
  });

  describe('the loop budget', () => {
    it(`stops a loop after ${MAX_LOOP_COUNTER} iterations with ES's painless_error`, () => {
      for (const src of ['while (true) {}', 'for (;;) {}', 'int i = 0; do { i++ } while (true);', 'def l = [1]; for (def x : l) { l.add(x) }']) {
        const err = failure(src);
        expect(err.reason, src).to.equal('runtime error');
        expect(err.caused_by, src).to.deep.equal({ type: 'painless_error', reason: LOOP_LIMIT_MESSAGE });
      }
    });

    it('counts each loop, nested ones included, and lets a script below the budget finish', () => {
      expect(show('int n = 0; for (int i = 0; i < 999; i++) { for (int j = 0; j < 1000; j++) { n++ } } n')).to.equal('999000');
      expect(failure('int n = 0; for (int i = 0; i < 1001; i++) { for (int j = 0; j < 1000; j++) { n++ } } n').caused_by.type).to.equal('painless_error');
    });

    it('a string or an array that would outgrow the engine\'s limits stops the script', () => {
      // The run's memory account (64 MiB) runs out before one string reaches its own limit.
      const doubling = failure('String s = "x"; for (int i = 0; i < 40; i++) { s += s } s.length()').caused_by;
      expect(doubling.type).to.equal('circuit_breaking_exception');
      expect(doubling.reason).to.match(/^\[script\] Data too large, data for \[painless allocations\]/);
      expect(failure('StringBuilder b = new StringBuilder(); b.append("x".repeat(40000000)); b.append("x".repeat(40000000)); b.length()').caused_by.type)
        .to.equal('circuit_breaking_exception');
      expect(failure('def a = new int[100000000]').caused_by.type).to.equal('circuit_breaking_exception');
      expect(failure('"ab".repeat(100000000)').caused_by.type).to.equal('circuit_breaking_exception');
    });

    it('recursion that branches without a loop is bounded by a call budget', () => {
      expect(failure('int f(int n) { return n > 40 ? 0 : f(n + 1) + f(n + 1); } f(0)').caused_by).to.deep.equal({
        type: 'painless_error', reason: 'The maximum number of function calls [1000000] in a script has been reached.',
      });
      expect(failure('int f(int n) { return f(n + 1); } f(0)').caused_by.type).to.equal('stack_overflow_error');
    });

    it('the loop error is not caught by a script\'s catch', () => {
      expect(failure('try { while (true) {} } catch (Exception e) { return 1 }').caused_by.type).to.equal('painless_error');
    });
  });

  describe('the sandbox', () => {
    const escapes = [
      'params.getClass()',
      '"".getClass()',
      '"".constructor',
      'def x = ""; x.constructor',
      'def x = ""; x["constructor"]',
      'def x = [:]; x.__proto__.constructor',
      'def x = this',
      'def x = process',
      'def x = globalThis',
      'def x = require("fs")',
      'def f = x -> x; f.constructor',
      'def f = x -> x; f.call(null)',
      'def s = "a"; s.toString.constructor',
      'Object o = params; o.constructor',
      'def x = []; x.class',
      'Class.forName("java.lang.Runtime")',
      'def x = new Function("return process")',
      'String.constructor',
      'Math.constructor',
      'constructor(1)',
      '"".__proto__',
      'def m = [:]; m.hasOwnProperty("x")',
    ];
    for (const src of escapes) {
      it(`refuses ${src}`, () => {
        const err = failure(src, '{}');
        expect(err.reason).to.be.oneOf(['compile error', 'runtime error']);
        expect(err.caused_by.type).to.be.oneOf(['illegal_argument_exception', 'null_pointer_exception']);
      });
    }

    it('a params key named like a JS internal is only data', () => {
      expect(show('params.constructor + "," + params["__proto__"] + "," + params.toString', '{"constructor": 1, "__proto__": 2, "toString": 3}')).to.equal('1,2,3');
      expect(run('params.containsKey("hasOwnProperty")', '{}')).to.equal(false);
    });

    it('the generated code cannot name globals: identifiers are prefixed, strings are literals', () => {
      expect(show('def process = 1; def require = 2; def globalThis = 3; process + require + globalThis')).to.equal('6');
      expect(show('def toString = 1; def constructor = 2; def hasOwnProperty = 3; toString + constructor + hasOwnProperty')).to.equal('6');
      expect(show('"\\"; process.exit(1); \\""')).to.equal('"; process.exit(1); "');
    });
  });

  describe('contexts', () => {
    it('an update script sees ctx and params, and returns nothing', () => {
      const ctx = new Map<unknown, unknown>([['_source', new Map([['n', 1]])]]);
      compileScript('ctx._source.n += params.by', UPDATE_CONTEXT).run({ ctx, params: fromJson({ by: 2 }) });
      expect((ctx.get('_source') as Map<string, unknown>).get('n')).to.equal(3);
      expect(() => compileScript('ctx._source.n', UPDATE_CONTEXT)).to.throw(EsError, 'compile error');
    });

    it('a filter script must produce a boolean', () => {
      expect(compileScript('params.x > 1', FILTER_CONTEXT).run({ params: fromJson({ x: 2 }), doc: new Map() })).to.equal(true);
      expect(() => compileScript('params.x', FILTER_CONTEXT).run({ params: fromJson({ x: 2 }), doc: new Map() })).to.throw(EsError, 'runtime error');
      expect(() => compileScript('doc.x', TEST_CONTEXT)).to.throw(EsError, 'compile error');
    });

    it('compiled scripts are cached by source', () => {
      expect(compileScript('1 + 1', TEST_CONTEXT).run({ params: new Map() })).to.equal(compileScript('1 + 1', TEST_CONTEXT).run({ params: new Map() }));
    });
  });
});
