// Every name src/ exports is imported somewhere: an export nothing imports is either code nobody
// runs or a name that should be local to its file. The rule, as this test applies it:
// - The exports checked are those of the files of src/: declarations marked `export` (values and
//   types alike), `export { … }`, `export default` and a barrel's named re-exports
//   (`export { a } from './x.js'`).
// - A name is used when a file of src/, test/, bench/, tools/ or examples/ other than its own
//   imports it: `import { a }`, `import a` (the default), `import * as ns` then `ns.a`,
//   `import('./x.js')` and what the code takes from it (`.a`, `{ a } =`, `.then((m) => m.a)`),
//   a type's `import('./x.js').A`, and a URL built from the module's path for import()
//   (`importEsm(new URL('./x.js', import.meta.url).href)`, bench's `imp('src/x.ts')`; dist/ is
//   read as src/). A use from the file itself does not count: there the name needs no `export`.
// - Barrels are followed: a name used through an index.ts (`export { a } from`, `export * from`)
//   is a use of the file that declares it; a barrel's own re-export nothing imports is reported
//   at the barrel. A module taken whole (passed on as a value, `export *` outside src/) uses all
//   of its names.
// - Roots: the command line's entry (src/cli/main.cts, the package's bin) and the start-up
//   bundle's entry (src/cli/start.ts, whose `start` main.cts reads from the bundle): all their
//   exports count as used. The worker threads' files (src/cli/simWorker.ts, simPoolWorker.ts) are
//   loaded by path; what they export is the message types their callers import.
// - uopscope has no library API: package.json names a bin and no `main` or `exports`, and
//   neither README.md nor docs/ offers src/ to be imported; so no export is kept for outsiders.
// The TypeScript compiler's parser reads each file on its own (no type checker: a few seconds on
// a small machine); a name used only through a path it cannot follow counts as unused, so the
// rule errs towards reporting and the fix is to import the name plainly.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIRS = ['src', 'test', 'bench', 'tools', 'examples'];
const ENTRIES = ['src/cli/main.cts', 'src/cli/start.ts'];
const SOURCE = /\.(c|m)?(t|j)sx?$/;

/** What one file of src/ exports. */
interface Exports {
  /** names declared here, with their line */
  local: Map<string, number>;
  /** `export { name as alias } from 'from'`: alias -> its origin, with the line ('*': the whole module) */
  forwarded: Map<string, { from: string; name: string; line: number }>;
  /** `export * from` these files */
  stars: string[];
}

/** A use of an export: `name` of `file`, or every name of it ('*'). */
interface Use {
  file: string;
  name: string;
}

function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const entry of readdirSync(join(ROOT, d), { withFileTypes: true })) {
      const path = posix.join(d, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') walk(path);
      } else if (SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(path);
    }
  };
  if (existsSync(join(ROOT, dir))) walk(dir);
  return out;
}

/** The file a module path names (relative to `from`'s directory, or to the root), dist/ read as src/. */
function resolver(files: Set<string>): (from: string, spec: string, fromRoot?: boolean) => string | undefined {
  return (from, spec, fromRoot = false) => {
    if (!fromRoot && !spec.startsWith('.')) return undefined;
    let path = posix.normalize(fromRoot ? spec : posix.join(posix.dirname(from), spec));
    if (path.startsWith('dist/')) path = `src/${path.slice(5)}`;
    const base = path.replace(/\.(c|m)?(j|t)sx?$/, '');
    const kinds = ['.ts', '.tsx', '.cts', '.mts', '.js', '.mjs', '.cjs', '/index.ts', '/index.tsx'];
    for (const candidate of [path, ...kinds.map((k) => base + k)]) if (files.has(candidate)) return candidate;
    return undefined;
  };
}

function hasModifier(node: ts.Node, kind: ts.SyntaxKind): boolean {
  return ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === kind);
}

function bindingNames(name: ts.BindingName): string[] {
  if (ts.isIdentifier(name)) return [name.text];
  return name.elements.flatMap((e) => (ts.isOmittedExpression(e) ? [] : bindingNames(e.name)));
}

/** The property names a destructuring takes (`{ a, b: c }` takes a and b); undefined for `[…]`. */
function takenNames(pattern: ts.BindingName): string[] | undefined {
  if (!ts.isObjectBindingPattern(pattern)) return undefined;
  const out: string[] = [];
  for (const e of pattern.elements) {
    if (e.dotDotDotToken) return undefined;
    const key = e.propertyName ?? e.name;
    if (ts.isIdentifier(key) || ts.isStringLiteral(key)) out.push(key.text);
    else return undefined;
  }
  return out;
}

function exportsOf(source: ts.SourceFile, resolve: (spec: string) => string | undefined): Exports {
  const out: Exports = { local: new Map(), forwarded: new Map(), stars: [] };
  const line = (n: ts.Node) => source.getLineAndCharacterOfPosition(n.getStart(source)).line + 1;
  for (const stmt of source.statements) {
    if (ts.isExportDeclaration(stmt)) {
      const from =
        stmt.moduleSpecifier && ts.isStringLiteral(stmt.moduleSpecifier)
          ? resolve(stmt.moduleSpecifier.text)
          : undefined;
      const clause = stmt.exportClause;
      if (!clause) {
        if (from) out.stars.push(from);
      } else if (ts.isNamespaceExport(clause)) {
        if (from) out.forwarded.set(clause.name.text, { from, name: '*', line: line(stmt) });
      } else {
        for (const e of clause.elements) {
          if (from) out.forwarded.set(e.name.text, { from, name: (e.propertyName ?? e.name).text, line: line(e) });
          else if (!stmt.moduleSpecifier) out.local.set(e.name.text, line(e));
        }
      }
    } else if (ts.isExportAssignment(stmt)) {
      out.local.set('default', line(stmt));
    } else if (hasModifier(stmt, ts.SyntaxKind.ExportKeyword)) {
      if (hasModifier(stmt, ts.SyntaxKind.DefaultKeyword)) out.local.set('default', line(stmt));
      else if (ts.isVariableStatement(stmt)) {
        for (const d of stmt.declarationList.declarations)
          for (const n of bindingNames(d.name)) out.local.set(n, line(d));
      } else {
        const name = (stmt as ts.Node & { name?: ts.Node }).name;
        if (name && (ts.isIdentifier(name) || ts.isStringLiteral(name))) {
          if (!out.local.has(name.text)) out.local.set(name.text, line(stmt));
        }
      }
    }
  }
  return out;
}

/** The module path a call imports: `import('p')`, `helper('p')` for a helper that wraps import(),
 *  `importEsm(new URL('p', import.meta.url).href)`. */
function importedPath(call: ts.CallExpression, importers: Set<string>): string | undefined {
  const callee = call.expression;
  const isImport =
    callee.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(callee) && importers.has(callee.text));
  if (!isImport) return undefined;
  const arg = call.arguments[0];
  if (!arg) return undefined;
  if (ts.isStringLiteralLike(arg)) return arg.text;
  // new URL('p', import.meta.url).href
  if (ts.isPropertyAccessExpression(arg) && arg.name.text === 'href' && ts.isNewExpression(arg.expression)) {
    const first = arg.expression.arguments?.[0];
    if (first && ts.isStringLiteralLike(first)) return first.text;
  }
  return undefined;
}

/** Functions of this file that import the path they are given: `const imp = (p) => import(…)`. */
function importHelpers(source: ts.SourceFile): Set<string> {
  const out = new Set<string>(['importEsm']);
  const visit = (node: ts.Node): void => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) {
      const fn = node.initializer;
      if (
        ts.isArrowFunction(fn) &&
        ts.isCallExpression(fn.body) &&
        fn.body.expression.kind === ts.SyntaxKind.ImportKeyword
      )
        out.add(node.name.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** What the code takes from a module value (an import() call, or a name bound to a module). */
function takenFrom(expr: ts.Expression, bindNamespace: (name: string) => void): string[] {
  let node: ts.Node = expr;
  let parent = node.parent;
  while (
    ts.isParenthesizedExpression(parent) ||
    ts.isAwaitExpression(parent) ||
    ts.isAsExpression(parent) ||
    ts.isNonNullExpression(parent) ||
    (ts.isConditionalExpression(parent) && parent.condition !== node)
  ) {
    node = parent;
    parent = node.parent;
  }
  if (ts.isPropertyAccessExpression(parent) && parent.expression === node) {
    const call = parent.parent;
    if (parent.name.text === 'then' && ts.isCallExpression(call) && call.expression === parent) {
      const fn = call.arguments[0];
      const param = fn && (ts.isArrowFunction(fn) || ts.isFunctionExpression(fn)) ? fn.parameters[0] : undefined;
      if (!param) return ['*'];
      if (ts.isIdentifier(param.name)) {
        bindNamespace(param.name.text);
        return [];
      }
      return takenNames(param.name) ?? ['*'];
    }
    return [parent.name.text];
  }
  if (
    ts.isElementAccessExpression(parent) &&
    parent.expression === node &&
    ts.isStringLiteralLike(parent.argumentExpression)
  )
    return [parent.argumentExpression.text];
  if (ts.isVariableDeclaration(parent) && parent.initializer === node) {
    if (ts.isIdentifier(parent.name)) {
      bindNamespace(parent.name.text);
      return [];
    }
    return takenNames(parent.name) ?? ['*'];
  }
  if (
    ts.isBinaryExpression(parent) &&
    parent.right === node &&
    parent.operatorToken.kind === ts.SyntaxKind.EqualsToken
  ) {
    if (ts.isIdentifier(parent.left)) {
      bindNamespace(parent.left.text);
      return [];
    }
  }
  // `await import('./x.js');` for its effect takes nothing
  if (ts.isExpressionStatement(parent)) return [];
  return ['*'];
}

/** The exports of other files this file uses (static and dynamic imports, import types). */
function usesIn(
  file: string,
  source: ts.SourceFile,
  resolve: (spec: string, fromRoot?: boolean) => string | undefined,
): Use[] {
  const uses: Use[] = [];
  const namespaces = new Map<string, string>(); // local name -> module file
  const helpers = importHelpers(source);
  const add = (target: string | undefined, names: string[]) => {
    if (target && target !== file) for (const name of names) uses.push({ file: target, name });
  };
  const isSrc = file.startsWith('src/');
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const target = resolve(node.moduleSpecifier.text);
      const clause = node.importClause;
      if (clause?.name) add(target, ['default']);
      const bindings = clause?.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) {
        if (target) namespaces.set(bindings.name.text, target);
      } else if (bindings)
        add(
          target,
          bindings.elements.map((e) => (e.propertyName ?? e.name).text),
        );
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      // in src/ a re-export is followed when its own name is used; elsewhere it uses the names
      if (!isSrc) {
        const clause = node.exportClause;
        const names =
          clause && ts.isNamedExports(clause) ? clause.elements.map((e) => (e.propertyName ?? e.name).text) : ['*'];
        add(resolve(node.moduleSpecifier.text), names);
      }
    } else if (ts.isCallExpression(node)) {
      const path = importedPath(node, helpers);
      if (path !== undefined) {
        const target = resolve(path) ?? resolve(path, true);
        if (target)
          add(
            target,
            takenFrom(node, (name) => namespaces.set(name, target)),
          );
      }
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      const target = resolve(node.argument.literal.text);
      if (node.qualifier) {
        let q: ts.EntityName = node.qualifier;
        while (ts.isQualifiedName(q)) q = q.left;
        add(target, [q.text]);
      } else if (ts.isIndexedAccessTypeNode(node.parent) && node.parent.objectType === node) {
        const index = node.parent.indexType;
        if (ts.isLiteralTypeNode(index) && ts.isStringLiteral(index.literal)) add(target, [index.literal.text]);
        else add(target, ['*']);
      }
      // a bare `typeof import('./x.js')` types a module value; the value's uses are counted
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  if (namespaces.size) {
    // what the code takes from a namespace name (by name: shadowing makes this count more, not less)
    const visitNames = (node: ts.Node): void => {
      if (ts.isIdentifier(node) && namespaces.has(node.text)) {
        const target = namespaces.get(node.text)!;
        const parent = node.parent;
        const declares =
          (ts.isNamespaceImport(parent) ||
            ts.isVariableDeclaration(parent) ||
            ts.isParameter(parent) ||
            ts.isBindingElement(parent)) &&
          parent.name === node;
        const assigned =
          ts.isBinaryExpression(parent) &&
          parent.left === node &&
          parent.operatorToken.kind === ts.SyntaxKind.EqualsToken;
        if (ts.isQualifiedName(parent) && parent.left === node) add(target, [parent.right.text]);
        else if (!declares && !assigned)
          add(
            target,
            takenFrom(node, () => add(target, ['*'])),
          );
      }
      ts.forEachChild(node, visitNames);
    };
    visitNames(source);
  }
  return uses;
}

function parse(file: string, text: string): ts.SourceFile {
  const kind = /\.(t|j)sx$/.test(file)
    ? ts.ScriptKind.TSX
    : /\.(c|m)?js$/.test(file)
      ? ts.ScriptKind.JS
      : ts.ScriptKind.TS;
  return ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
}

/** Every export of src/ that no other file uses, as `path:line name`. */
function unusedExports(texts: Map<string, string>, entries: string[]): string[] {
  const resolveFrom = resolver(new Set(texts.keys()));
  const exports = new Map<string, Exports>();
  const uses: Use[] = entries.map((file) => ({ file, name: '*' }));
  for (const [file, text] of texts) {
    const source = parse(file, text);
    const resolve = (spec: string, fromRoot?: boolean) => resolveFrom(file, spec, fromRoot);
    if (file.startsWith('src/')) exports.set(file, exportsOf(source, resolve));
    uses.push(...usesIn(file, source, resolve));
  }
  const used = new Set<string>();
  const seen = new Set<string>();
  const declares = (file: string, name: string, path = new Set<string>()): boolean => {
    const e = exports.get(file);
    if (!e || path.has(file)) return false;
    path.add(file);
    return e.local.has(name) || e.forwarded.has(name) || e.stars.some((s) => declares(s, name, path));
  };
  const allNames = (file: string, path = new Set<string>()): string[] => {
    const e = exports.get(file);
    if (!e || path.has(file)) return [];
    path.add(file);
    const star = e.stars.flatMap((s) => allNames(s, path)).filter((n) => n !== 'default');
    return [...e.local.keys(), ...e.forwarded.keys(), ...star];
  };
  const use = (file: string, name: string): void => {
    const key = `${file}\0${name}`;
    if (seen.has(key)) return;
    seen.add(key);
    const e = exports.get(file);
    if (!e) return;
    if (name === '*') {
      for (const n of allNames(file)) use(file, n);
      return;
    }
    if (e.local.has(name)) used.add(key);
    const fwd = e.forwarded.get(name);
    if (fwd) {
      used.add(key);
      use(fwd.from, fwd.name);
    }
    if (!e.local.has(name) && !fwd) for (const s of e.stars) if (declares(s, name)) use(s, name);
  };
  for (const u of uses) use(u.file, u.name);
  const unused: string[] = [];
  for (const [file, e] of exports) {
    const names = [...e.local].concat([...e.forwarded].map(([n, f]) => [n, f.line] as [string, number]));
    for (const [name, line] of names) if (!used.has(`${file}\0${name}`)) unused.push(`${file}:${line} ${name}`);
  }
  return unused.sort();
}

test('every export of src/ is imported by another file of src/, test/, bench/, tools/ or examples/', () => {
  const texts = new Map<string, string>();
  for (const file of DIRS.flatMap(listFiles))
    texts.set(file, readFileSync(join(ROOT, file.split('/').join(sep)), 'utf8'));
  assert.ok(texts.size > 300, `read ${texts.size} files from ${relative(process.cwd(), ROOT) || '.'}`);
  for (const entry of ENTRIES) assert.ok(texts.has(entry), `${entry}, an entry, is missing: update ENTRIES`);
  assert.deepEqual(
    unusedExports(texts, ENTRIES),
    [],
    'nothing imports these: drop `export` (the file uses the name) or the code (nothing does)',
  );
});

test('the check follows every kind of import and re-export, and reports what none uses', () => {
  const files: Record<string, string> = {
    'src/cli/main.cts': `export const entryOnly = 1;`,
    'src/a.ts': [
      'export const viaNamed = 1, unusedConst = 2;',
      'export function onlyHere() {}',
      'onlyHere();',
      'export interface UnusedType { x: number }',
      'export type ViaImportType = number;',
      'export default class Defaulted {}',
    ].join('\n'),
    'src/b.ts': 'export function viaStar() {}\nexport function starUnused() {}\nexport const viaThen = 1;',
    'src/c.ts':
      'export const viaNamespace = 1;\nexport const viaDynamic = 2;\nexport const viaUrl = 3;\nexport let nsUnused = 4;',
    'src/d.ts': 'export const taken = 1;\nexport const whole = 2;',
    'src/index.ts':
      "export * from './b.js';\nexport { viaNamed, unusedConst as renamed } from './a.js';\nexport type * from './e.js';",
    'src/e.ts': 'export type ViaTypeStar = 1;\nexport const local = 1;\nconst x = 1;\nexport { x as exportedLater };',
    'src/f.ts': "import Defaulted from './a.js';\nimport * as ns from './c.js';\nns.viaNamespace;\nexport const f = 1;",
    'test/x.test.ts': [
      "import { viaNamed, viaStar, type ViaTypeStar } from '../src/index.js';",
      "const { viaDynamic } = await import('../src/c.js');",
      "const m = await importEsm(new URL('../dist/c.js', import.meta.url).href);",
      'm.viaUrl;',
      "import('../src/index.js').then((i) => i.viaThen);",
      "let t: import('../src/a.js').ViaImportType;",
      'const imp = (p: string) => import(p);',
      "const whole = await imp('src/d.ts');",
      'use(whole);',
      "import { f } from '../src/f.js';",
    ].join('\n'),
  };
  assert.deepEqual(unusedExports(new Map(Object.entries(files)), ['src/cli/main.cts']), [
    'src/a.ts:1 unusedConst',
    'src/a.ts:2 onlyHere',
    'src/a.ts:4 UnusedType',
    'src/b.ts:2 starUnused',
    'src/c.ts:4 nsUnused',
    'src/e.ts:2 local',
    'src/e.ts:4 exportedLater',
    'src/index.ts:2 renamed',
  ]);
});
