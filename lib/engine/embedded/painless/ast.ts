/** The syntax tree of a Painless script, as the parser builds it; `at` is each node's source offset. */

/** A type as written: a name (`int`, `String`, `Map.Entry`) and array dimensions. */
export interface TypeRef {
  name: string;
  dims: number;
}

export type Expr =
  | { kind: 'number'; at: number; text: string; decimal: boolean }
  | { kind: 'string'; at: number; value: string }
  | { kind: 'boolean'; at: number; value: boolean }
  | { kind: 'null'; at: number }
  | { kind: 'regex'; at: number; pattern: string; flags: string }
  | { kind: 'variable'; at: number; name: string }
  | { kind: 'list'; at: number; items: Expr[] }
  | { kind: 'map'; at: number; entries: Array<[Expr, Expr]> }
  | { kind: 'new'; at: number; type: string; args: Expr[] }
  | { kind: 'newArray'; at: number; type: TypeRef; sizes: Expr[] }
  | { kind: 'arrayInit'; at: number; type: TypeRef; items: Expr[] }
  /** `target.name(args)`; `nullSafe` for `?.`. */
  | { kind: 'call'; at: number; target: Expr; name: string; args: Expr[]; nullSafe: boolean }
  /** `name(args)`: a function of the script, or one its context provides (emit, saturation…). */
  | { kind: 'localCall'; at: number; name: string; args: Expr[] }
  | { kind: 'field'; at: number; target: Expr; name: string; nullSafe: boolean }
  | { kind: 'index'; at: number; target: Expr; index: Expr }
  | { kind: 'staticCall'; at: number; type: string; name: string; args: Expr[] }
  | { kind: 'staticField'; at: number; type: string; name: string }
  | { kind: 'unary'; at: number; op: '!' | '~' | '+' | '-'; expr: Expr }
  | { kind: 'cast'; at: number; type: TypeRef; expr: Expr }
  | { kind: 'binary'; at: number; op: string; left: Expr; right: Expr }
  | { kind: 'instanceof'; at: number; expr: Expr; type: TypeRef }
  | { kind: 'conditional'; at: number; test: Expr; then: Expr; otherwise: Expr }
  | { kind: 'elvis'; at: number; left: Expr; right: Expr }
  | { kind: 'assign'; at: number; op: string; target: Expr; value: Expr }
  | { kind: 'increment'; at: number; op: '++' | '--'; prefix: boolean; target: Expr }
  | { kind: 'lambda'; at: number; params: Array<{ type?: TypeRef; name: string }>; body: Block | Expr }
  | { kind: 'funcref'; at: number; type: string; name: string };

export interface Block {
  kind: 'block';
  at: number;
  body: Stmt[];
}

export type Stmt =
  | Block
  | { kind: 'declaration'; at: number; type: TypeRef; vars: Array<{ name: string; at: number; init?: Expr }> }
  | { kind: 'expression'; at: number; expr: Expr }
  | { kind: 'if'; at: number; test: Expr; then: Stmt; otherwise?: Stmt }
  | { kind: 'while'; at: number; test: Expr; body?: Stmt }
  | { kind: 'do'; at: number; body: Block; test: Expr }
  | { kind: 'for'; at: number; init?: Stmt; test?: Expr; update?: Expr; body?: Stmt }
  | { kind: 'each'; at: number; type?: TypeRef; name: string; iterable: Expr; body: Stmt }
  | { kind: 'return'; at: number; expr?: Expr }
  | { kind: 'break'; at: number }
  | { kind: 'continue'; at: number }
  | { kind: 'throw'; at: number; expr: Expr }
  | { kind: 'try'; at: number; block: Block; catches: Array<{ type: string; name: string; block: Block; at: number }> };

export interface FunctionDecl {
  at: number;
  returns: TypeRef;
  name: string;
  params: Array<{ type: TypeRef; name: string }>;
  body: Block;
}

export interface Program {
  functions: FunctionDecl[];
  body: Stmt[];
  /** Offsets where statements start: a runtime error's stack shows the statement it happened in. */
  statements: number[];
}
