/**
 * `npm run lint:exports`: names every export of the source folders (shared/, electron/, renderer/) that no other
 * file uses, so a function kept only by its `export` keyword is seen and removed. One TypeScript program over the
 * sources, bench/ and tests/ (a test's use counts: an export kept for a test is used); each identifier outside a
 * declaring file is resolved through its imports to the declaration it names, and that declaration counts as used.
 * The entry files (the bundles' entries, the renderer's, each process's main) are not checked: the world outside
 * the program loads them. Prints `file: name` per finding and exits 1, or prints nothing and exits 0.
 *
 * Written on the TypeScript compiler the project already has (not knip): the checks must run from the
 * node_modules every checkout shares, and this is one file whose rules can be read here.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

// `--root DIR` checks another tree laid out the same way (its test runs it on tests/fixtures/unused-exports).
const rootFlag = process.argv.indexOf('--root');
const root =
  rootFlag >= 0 ? resolve(process.argv[rootFlag + 1] ?? '.') : join(dirname(fileURLToPath(import.meta.url)), '..');

/** Files whose exports the world outside the program uses (bundle entries, processes, the renderer's page). */
const ENTRIES = new Set([
  'electron/main/main.ts',
  'electron/preload/preload.cts',
  'electron/worker/worker-main.ts',
  'electron/cli/main.ts',
  'electron/engine/sandbox/thread-main.ts',
  'electron/engine/tools/compute/thread-main.ts',
  'electron/engine/sandbox/python/py-child-main.ts',
  'renderer/main.tsx',
]);
const CHECKED = ['shared', 'electron', 'renderer'];
const USERS = ['bench', 'tests'];

function walk(dir, out = []) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || name === 'fixtures') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, out);
    else if (/\.(ts|tsx|cts)$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

const rel = (file) => relative(root, file).split(sep).join('/');
const files = [...CHECKED, ...USERS].flatMap((d) => (existsSync(join(root, d)) ? walk(join(root, d)) : []));
const program = ts.createProgram(files, {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  jsx: ts.JsxEmit.ReactJSX,
  lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
  types: ['node', 'vite/client'],
  resolveJsonModule: true,
  allowJs: false,
  noEmit: true,
  skipLibCheck: true,
  strict: true,
});
const checker = program.getTypeChecker();

/** The declaration symbol a name resolves to, through any chain of imports and re-exports. */
function target(symbol) {
  let s = symbol;
  for (let i = 0; s && s.flags & ts.SymbolFlags.Alias && i < 20; i++) {
    try {
      s = checker.getAliasedSymbol(s);
    } catch {
      return s;
    }
  }
  return s;
}

const used = new Set();
const mark = (symbol) => {
  const s = target(symbol);
  if (s) used.add(s);
};

/** The variable declaration a name or pattern element sits in, if any. */
function declarationOf(node) {
  let n = node;
  while (n && (ts.isBindingElement(n) || ts.isObjectBindingPattern(n) || ts.isArrayBindingPattern(n))) n = n.parent;
  return n && ts.isVariableDeclaration(n) ? n : undefined;
}
const fromImportCall = (declaration) =>
  !!declaration?.initializer && /\bimport\(/.test(declaration.initializer.getText());
const unwrap = (node) =>
  ts.isParenthesizedExpression(node) || ts.isAwaitExpression(node) ? unwrap(node.expression) : node;
const isImportCall = (node) => ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword;

/** Whether a name was bound by `import * as ns` or to what `import()` gives (so `ns.name` names an export). */
function isModuleValue(identifier) {
  const symbol = checker.getSymbolAtLocation(identifier);
  const declaration = symbol?.declarations?.[0];
  if (!declaration) return false;
  if (ts.isNamespaceImport(declaration)) return true;
  return (
    (ts.isVariableDeclaration(declaration) || ts.isBindingElement(declaration)) &&
    fromImportCall(declarationOf(declaration))
  );
}

/** `import()` whose module is handed on whole (`() => import('./x.js')`): every export it has may be used. */
function markAllOf(call) {
  const symbol = checker.getSymbolAtLocation(call.arguments[0]);
  if (symbol) for (const exported of checker.getExportsOfModule(symbol)) mark(exported);
}

/** Names each file uses from other files: imports, re-exports, `ns.name`, `{ name } = await import()`, import types. */
const bySource = new Map();
for (const file of files) {
  const source = program.getSourceFile(file);
  if (!source) continue;
  bySource.set(file, source);
  const visit = (node) => {
    if (ts.isImportSpecifier(node) || ts.isExportSpecifier(node) || ts.isImportClause(node)) {
      const symbol = checker.getSymbolAtLocation(node.name ?? node);
      if (symbol) mark(symbol);
    } else if (ts.isExportAssignment(node) && ts.isIdentifier(node.expression)) {
      const symbol = checker.getSymbolAtLocation(node.expression);
      if (symbol) mark(symbol);
    } else if (isImportCall(node) && node.arguments.length === 1) {
      let up = node.parent;
      while (ts.isAwaitExpression(up) || ts.isParenthesizedExpression(up)) up = up.parent;
      const taken =
        ts.isPropertyAccessExpression(up) ||
        declarationOf(up) ||
        (ts.isArrayLiteralExpression(up) && declarationOf(up.parent?.parent?.parent));
      if (!taken) markAllOf(node);
    } else if (ts.isPropertyAccessExpression(node) && isImportCall(unwrap(node.expression))) {
      const symbol = checker.getSymbolAtLocation(node.name);
      if (symbol) mark(symbol);
    } else if (
      ts.isPropertyAccessExpression(node) &&
      ts.isIdentifier(node.expression) &&
      isModuleValue(node.expression)
    ) {
      const symbol = checker.getSymbolAtLocation(node.name);
      if (symbol) mark(symbol);
    } else if (ts.isQualifiedName(node) && ts.isIdentifier(node.left)) {
      const left = checker.getSymbolAtLocation(node.left);
      if (left?.declarations?.some((d) => ts.isNamespaceImport(d))) {
        const symbol = checker.getSymbolAtLocation(node.right);
        if (symbol) mark(symbol);
      }
    } else if (ts.isImportTypeNode(node) && node.qualifier) {
      const symbol = checker.getSymbolAtLocation(
        ts.isQualifiedName(node.qualifier) ? node.qualifier.right : node.qualifier,
      );
      if (symbol) mark(symbol);
    } else if (ts.isBindingElement(node) && ts.isObjectBindingPattern(node.parent)) {
      if (fromImportCall(declarationOf(node))) {
        const name = node.propertyName ?? node.name;
        const property = ts.isIdentifier(name) && checker.getTypeAtLocation(node.parent).getProperty(name.text);
        if (property) mark(property);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}

/** How often each name appears in a file's text as a whole word (once is its own declaration). */
function usesInFile(source, name) {
  const matches = source.text.match(new RegExp(`(?<![\\w$])(?<![^.]\\.)${name.replace(/\$/g, '\\$')}(?![\\w$])`, 'g'));
  return matches ? matches.length : 0;
}

const findings = [];
for (const [file, source] of bySource) {
  const name = rel(file);
  if (!CHECKED.some((d) => name.startsWith(`${d}/`)) || ENTRIES.has(name)) continue;
  const moduleSymbol = checker.getSymbolAtLocation(source);
  if (!moduleSymbol) continue;
  for (const exported of checker.getExportsOfModule(moduleSymbol)) {
    if (used.has(exported) || used.has(target(exported))) continue;
    // Used in its own file: the export may be one too many, but the code is not dead (knip's ignoreExportsUsedInFile).
    if (usesInFile(source, exported.name) > 1) continue;
    findings.push(`${name}: ${exported.name}`);
  }
}

if (findings.length) {
  console.error(
    `Exports no other file uses (drop the export, or the code if nothing uses it):\n${findings.map((f) => `  ${f}`).join('\n')}`,
  );
  process.exit(1);
}
