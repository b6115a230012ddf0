#!/usr/bin/env node
/**
 * Small speed patches to dependencies' built files, applied after every
 * `npm install` / `npm ci` (package.json "postinstall"; decisions 100 and 110).
 *
 * Each patch names the package, the exact text it replaces and why. A file
 * already patched is left alone; a file whose original text is not found
 * (the dependency changed) is left as it is with a warning: the app stays
 * correct, only slower. `--check` exits 1 when a patch is not in place, which
 * tests/contracts/trpc-spread-patch.test.ts runs, so an upgrade that loses a
 * patch fails CI instead of passing quietly.
 */
import { readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

const PATCHES = [
  {
    package: '@trpc/server',
    why:
      "tRPC's build emulates object spread with a helper that copies property descriptors one by one; " +
      'it runs several times per middleware level of every call (about 5 us a level on this machine). ' +
      'Object.assign does the same copy for the plain objects tRPC spreads, several times faster. ' +
      'An own "__proto__" key (spread defines it, assign would set the prototype) keeps the exact path.',
    // oxc's objectSpread2 helper, as @trpc/server 11.x ships it in its .mjs and .cjs builds.
    original: [
      'function _objectSpread2(e) {',
      '\tfor (var r = 1; r < arguments.length; r++) {',
      '\t\tvar t = null != arguments[r] ? arguments[r] : {};',
      '\t\tr % 2 ? ownKeys(Object(t), !0).forEach(function(r) {',
      '\t\t\t_defineProperty(e, r, t[r]);',
      '\t\t}) : Object.getOwnPropertyDescriptors ? Object.defineProperties(e, Object.getOwnPropertyDescriptors(t)) : ownKeys(Object(t)).forEach(function(r) {',
      '\t\t\tObject.defineProperty(e, r, Object.getOwnPropertyDescriptor(t, r));',
      '\t\t});',
      '\t}',
      '\treturn e;',
      '}',
    ].join('\n'),
    replacement: [
      'function _objectSpread2(e) {',
      '\t// poshan patch (scripts/patch-deps.mjs): Object.assign instead of copying descriptors key by key.',
      '\tfor (var r = 1; r < arguments.length; r++) {',
      '\t\tvar t = arguments[r];',
      '\t\tif (null == t) continue;',
      '\t\tif (!Object.prototype.hasOwnProperty.call(t, "__proto__")) {',
      '\t\t\tObject.assign(e, t);',
      '\t\t\tcontinue;',
      '\t\t}',
      '\t\townKeys(Object(t), !0).forEach(function(k) {',
      '\t\t\tObject.defineProperty(e, k, { value: t[k], enumerable: !0, configurable: !0, writable: !0 });',
      '\t\t});',
      '\t}',
      '\treturn e;',
      '}',
    ].join('\n'),
    // The helper is defined once per module format; other chunks import it.
    files: (text) => text.includes('function _objectSpread2(e) {'),
    expected: 2,
  },
];

function packageDist(name) {
  const dir = path.dirname(require.resolve(`${name}/package.json`));
  return path.join(dir, 'dist');
}

/** Applies (or with check, only inspects) every patch; returns the problems found. */
function run(check) {
  const problems = [];
  for (const patch of PATCHES) {
    let dist;
    try {
      dist = packageDist(patch.package);
    } catch {
      problems.push(`${patch.package} is not installed`);
      continue;
    }
    let patched = 0;
    for (const file of readdirSync(dist)) {
      if (!/\.(mjs|cjs|js)$/.test(file)) continue;
      const full = path.join(dist, file);
      const text = readFileSync(full, 'utf8');
      if (!patch.files(text)) continue;
      if (text.includes(patch.replacement)) {
        patched += 1;
      } else if (check) {
        problems.push(`${patch.package}: ${file} is not patched`);
      } else if (text.includes(patch.original)) {
        // A new file, not a write into this one: node_modules may be hard-linked to another checkout's.
        const next = text.replace(patch.original, patch.replacement);
        const tmp = `${full}.poshan-${process.pid}`;
        writeFileSync(tmp, next);
        renameSync(tmp, full);
        patched += 1;
      } else {
        problems.push(`${patch.package}: ${file} no longer holds the text this patch replaces`);
      }
    }
    if (patched !== patch.expected) problems.push(`${patch.package}: ${patched} of ${patch.expected} files patched`);
  }
  return problems;
}

const check = process.argv.includes('--check');
const problems = run(check);
if (problems.length) {
  const lines = problems.map((p) => `  - ${p}`).join('\n');
  if (check) {
    console.error(`dependency patches missing (run: node scripts/patch-deps.mjs):\n${lines}`);
    process.exit(1);
  }
  console.warn(`[patch-deps] left unpatched (the app still works, a little slower; see decision 100):\n${lines}`);
} else if (!check) {
  console.log(`[patch-deps] ${PATCHES.map((p) => p.package).join(', ')} patched`);
}
