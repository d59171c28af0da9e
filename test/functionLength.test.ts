// No function in src/ is 80 lines or longer unless docs/architecture.md names it and says why
// (its section "Long functions"). The TypeScript compiler's parser finds every function: declarations,
// methods, constructors, accessors, function expressions and arrow functions, nested ones included
// (an outer function's length counts its nested ones, as a reader scrolls past them).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

const LIMIT = 80;

interface LongFunction {
  file: string;
  name: string;
  lines: number;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (/\.(c|m)?tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(path);
  }
  return out.sort();
}

function nameOf(node: ts.Node): string | undefined {
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const named = node as ts.Node & { name?: ts.Node };
  if (named.name && (ts.isIdentifier(named.name) || ts.isPrivateIdentifier(named.name))) return named.name.text;
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) {
    if (ts.isIdentifier(parent.name) || ts.isStringLiteral(parent.name)) return parent.name.text;
  }
  return undefined;
}

// `Class.method`, `outer.inner`, `outer.(anonymous)`: the chain of named functions and classes.
function qualifiedName(node: ts.Node): string {
  const parts: string[] = [];
  for (let n: ts.Node | undefined = node; n; n = n.parent) {
    if (ts.isClassLike(n)) parts.unshift(n.name?.text ?? '(class)');
    else if (ts.isFunctionLike(n)) {
      const name = nameOf(n);
      if (name !== undefined || n === node) parts.unshift(name ?? '(anonymous)');
    }
  }
  return parts.join('.');
}

function longFunctionsIn(file: string, text: string): LongFunction[] {
  const kind = file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const found: LongFunction[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && (node as ts.FunctionLikeDeclaration).body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      if (lines >= LIMIT) found.push({ file, name: qualifiedName(node), lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function longFunctions(): LongFunction[] {
  return sourceFiles('src').flatMap((file) => longFunctionsIn(file, readFileSync(file, 'utf8')));
}

// The named exceptions: lines of the section "Long functions" of docs/architecture.md written
// "- `name` (path): why" — the why at least a few words.
function namedExceptions(): { name: string; file: string; why: string }[] {
  const doc = readFileSync('docs/architecture.md', 'utf8');
  const section = doc.split(/^## /m).find((s) => s.startsWith('Long functions'));
  if (!section) return [];
  const out: { name: string; file: string; why: string }[] = [];
  for (const m of section.matchAll(/^- `([^`]+)` \(`?([^`),\s]+)`?[^)]*\):?\s*(?:—\s*)?(.*)$/gm)) {
    out.push({ name: m[1]!, file: m[2]!, why: m[3]!.trim() });
  }
  return out;
}

test('no function in src/ is 80 lines or longer unless docs/architecture.md names it and says why', () => {
  const exceptions = namedExceptions();
  const unnamed = longFunctions().filter(
    (f) => !exceptions.some((e) => e.file === f.file && e.name === f.name && e.why.split(/\s+/).length >= 5),
  );
  assert.deepEqual(
    unnamed.map((f) => `${f.file}: ${f.name} (${f.lines} lines)`),
    [],
    'split these functions, or name each in docs/architecture.md, "Long functions", with the reason',
  );
});

test('every function docs/architecture.md names as long is still 80 lines or longer', () => {
  const long = longFunctions();
  const stale = namedExceptions().filter((e) => !long.some((f) => f.file === e.file && f.name === e.name));
  assert.deepEqual(stale, [], 'remove these from docs/architecture.md, "Long functions"');
});

test('the length check sees every kind of function and its nesting', () => {
  const body = (n: number) => Array.from({ length: n }, (_, i) => `  x += ${i};`).join('\n');
  const text = [
    `function outer() {\n  let x = 0;\n  const inner = () => {\n${body(LIMIT)}\n  };\n}`,
    `class C {\n  method() {\n  let x = 0;\n${body(LIMIT - 3)}\n  }\n  short() {\n${body(LIMIT - 4)}\n  }\n}`,
    `register((x) => {\n${body(LIMIT - 2)}\n});`,
  ].join('\n');
  const found = longFunctionsIn('t.ts', text);
  assert.deepEqual(
    found.map((f) => `${f.name} ${f.lines}`),
    [`outer ${LIMIT + 5}`, `outer.inner ${LIMIT + 2}`, `C.method ${LIMIT}`, `(anonymous) ${LIMIT}`],
  );
});
